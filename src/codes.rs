//! The codes the reader, front end and argparse layer emit themselves (the rules' codes are in
//! their metadata, `rules::all_rules()`). Listed in the rule reference; `tests/metadata.rs`
//! checks this table against the codes the source emits.

use crate::diagnostic::{Origin, Stage};

pub struct Code {
    pub code: &'static str,
    pub stage: Stage,
    /// SGLang's own error or warning (its exact message), or preflight's finding.
    pub origin: Origin,
    pub meaning: &'static str,
}

const fn code(code: &'static str, stage: Stage, origin: Origin, meaning: &'static str) -> Code {
    Code { code, stage, origin, meaning }
}

use Origin::{Preflight as P, Sglang as S};

/// Every code emitted outside the rules, by stage.
pub const CODES: &[Code] = &[
    code("P0001", Stage::Cli, P, "The SGLang version asked for is not one this build carries."),
    code("P0002", Stage::Shell, P, "The text holds no SGLang launch command."),
    code("P0003", Stage::Shell, P, "The paste also runs a command that is neither an SGLang launch nor harmless set-up (listed in `also_runs`)."),
    code("P0004", Stage::Shell, P, "The text names the SGLang release it runs (an image tag, a pinned install): checked against that release."),
    code("P0005", Stage::Shell, P, "The text names an SGLang release this build does not carry: checked against another one."),
    code("P0006", Stage::Shell, P, "A vLLM launch (`vllm serve ...`): its SGLang equivalent, flag by flag, offered as a fix."),
    code("SRC001", Stage::Shell, P, "A file that mentions a launch but cannot be read as its kind (a notebook that is not JSON, YAML that does not parse): its launches were not checked."),
    code("IO001", Stage::Shell, P, "A file found while checking a tree that could not be read, or not as UTF-8 text, though it mentions SGLang: its launches were not checked."),
    code("TXT001", Stage::Shell, P, "A flag starts with a dash-like character (en or em dash, ...) instead of `-`/`--`."),
    code("TXT002", Stage::Shell, P, "A flag name holds a hyphen-like character that is not the ASCII hyphen."),
    code("TXT003", Stage::Shell, P, "Typographic (curly) quotes, which the shell passes on as characters of the value."),
    code("TXT004", Stage::Shell, P, "Invisible or blank-looking characters (zero-width, variation selectors, tag characters, Hangul fillers, ...) anywhere in the text."),
    code("TXT005", Stage::Shell, P, "A space-like character (non-breaking, thin, ...) that is not a space to the shell, so two words stay one."),
    code("TXT006", Stage::Shell, P, "A PowerShell line continuation (backtick) that bash reads as a command substitution."),
    code("TXT007", Stage::Shell, P, "A cmd.exe line continuation (`^`) that ends the command in bash."),
    code("TXT008", Stage::Shell, P, "Control characters in the text."),
    code("TXT009", Stage::Shell, P, "Bidirectional control characters anywhere in the text: what is displayed is not what runs."),
    code("SH001", Stage::Shell, P, "A `\\` followed by spaces or a comment: the line continuation is broken and the command ends there."),
    code("SH002", Stage::Shell, P, "A line continuation with nothing after it."),
    code("SH003", Stage::Shell, P, "An unterminated quote: the rest of the text becomes one word."),
    code("SH004", Stage::Shell, P, "Unquoted JSON, which the shell splits and strips of its quotes."),
    code("SH005", Stage::Shell, P, "A parameter expansion (`$VAR`) preflight does not expand; the literal text is checked (a required `${VAR:?msg}` is a value not known here)."),
    code("SH006", Stage::Shell, P, "A command substitution preflight does not run; the literal text is checked."),
    code("SH007", Stage::Shell, P, "A `<placeholder>` the shell would read as redirections."),
    code("SH008", Stage::Shell, P, "A leading `$ ` prompt, ignored."),
    code("SH009", Stage::Shell, P, "Digits before `>`/`<` that the shell reads as a file descriptor, not as a value."),
    code("SH010", Stage::Shell, P, "A here-document without its closing delimiter."),
    code("SRC002", Stage::Shell, P, "A template (`{{ ... }}`, `${{ ... }}`) in a launch in a file: its value is not known; the launch is checked around it."),
    code("CLI001", Stage::Cli, S, "`sglang serve --model-type` without a value."),
    code("CLI002", Stage::Cli, S, "`sglang serve --model-type` with an empty value."),
    code("CLI003", Stage::Cli, S, "`sglang serve --model-type` with an unknown backend."),
    code("CLI004", Stage::Cli, S, "`sglang serve` without a model path."),
    code("CLI006", Stage::Cli, P, "`sglang serve --model-type diffusion`: the diffusion server's flags are not checked."),
    code("CFG001", Stage::Config, S, "More than one `--config` file."),
    code("CFG002", Stage::Config, S, "`--config` without a file after it."),
    code("CFG003", Stage::Config, S, "A `--config` file whose name does not end in `.yaml`/`.yml`."),
    code("CFG004", Stage::Config, S, "A `--config` file that is not there (and whose contents were not given)."),
    code("CFG005", Stage::Config, S, "A `--config` file that is not valid YAML."),
    code("CFG006", Stage::Config, S, "A `--config` file whose top level is not a mapping."),
    code("CFG007", Stage::Config, S, "A `--config` key for a flag kind SGLang's config merger does not handle."),
    code("CFG008", Stage::Config, P, "An abbreviation of `--config`, which argparse accepts and SGLang's config loader ignores."),
    code("CFG009", Stage::Config, P, "A `--config` file whose YAML aliases expand to too many values: SGLang would hang or run out of memory; not expanded."),
    code("CFG010", Stage::Config, S, "A `--config` file nested too deeply: PyYAML exceeds Python's recursion limit (RecursionError)."),
    code("ARG001", Stage::Argparse, S, "An ambiguous flag prefix."),
    code("ARG002", Stage::Argparse, S, "A value given to a switch (`--flag=value` for a flag without values)."),
    code("ARG003", Stage::Argparse, S, "A flag without its value(s)."),
    code("ARG004", Stage::Argparse, S, "A value of the wrong type (not an int, float, ...)."),
    code("ARG005", Stage::Argparse, S, "A value outside the flag's choices."),
    code("ARG006", Stage::Argparse, S, "A `--lora-paths` JSON entry without `lora_name` and `lora_path`."),
    code("ARG007", Stage::Argparse, S, "A required argument is missing."),
    code("ARG008", Stage::Argparse, S, "Unrecognized arguments."),
    code("ARG009", Stage::Argparse, S, "A deprecated flag (a warning)."),
    code("ARG010", Stage::Argparse, P, "A flag given more than once; the last value wins."),
    code("ARG011", Stage::Argparse, P, "`-h`/`--help`: SGLang prints its help and exits; nothing else is checked."),
    code("ARG012", Stage::Argparse, S, "A log level that Python's `logging` does not have."),
    code("ARG013", Stage::Argparse, P, "One of several unrecognized arguments, on its own (with its fixes); ARG008 lists them all."),
];
