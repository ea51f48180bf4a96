//! Launch commands in documentation files (issue 13): Markdown / MDX code blocks,
//! reStructuredText code blocks and Jupyter notebooks, checked where they stand.
//!
//! Each case reads a file, and says where each launch is (line and column), that a finding's
//! span is the text the user wrote in the FILE, and that applying a fix to the file changes only
//! that span and makes the finding go away. Ignore comments and configured ignores drop
//! findings; hostile files neither panic nor take long.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic, clippy::string_slice)]

use sglang_preflight::diagnostic::{apply_edits, Applicability, Diagnostic};
use sglang_preflight::sources::{check_file, check_file_with, FileReport, Kind};
use sglang_preflight::CheckOptions;
use std::time::{Duration, Instant};

fn check(kind: Kind, text: &str) -> FileReport {
    check_file("file", kind, text, &CheckOptions::default())
}

/// (line, column) of every launch found.
fn places(report: &FileReport) -> Vec<(usize, usize)> {
    report.commands.iter().map(|c| (c.line, c.column)).collect()
}

fn codes(report: &FileReport) -> Vec<String> {
    report.commands.iter().flat_map(|c| c.command.diagnostics.iter().map(|d| d.code.clone())).collect()
}

/// The findings with `code`, in file order.
fn findings<'a>(report: &'a FileReport, code: &str) -> Vec<&'a Diagnostic> {
    report.commands.iter().flat_map(|c| c.command.diagnostics.iter()).filter(|d| d.code == code).collect()
}

/// The file text a finding's span covers.
fn spanned<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    &text[d.span.start..d.span.end]
}

/// Apply the first fix with edits of the `index`th finding with `code`; checks that only the
/// edited bytes changed and that re-checking the fixed file no longer reports that finding there.
fn apply_fix(kind: Kind, text: &str, code: &str, index: usize) -> String {
    let report = check(kind, text);
    let found = findings(&report, code);
    let finding = found.get(index).unwrap_or_else(|| panic!("no {code} #{index} in {:?}", codes(&report)));
    let fix = finding.fixes.iter().find(|f| !f.edits.is_empty()).unwrap_or_else(|| panic!("{code} has no fix with edits: {:?}", finding.fixes));
    let edits = &fix.edits;
    let fixed = apply_edits(text, edits).expect("the edits fit the file");
    let first = edits.iter().map(|e| e.start).min().unwrap();
    let last = edits.iter().map(|e| e.end).max().unwrap();
    assert!(finding.span.start <= first && last <= finding.span.end, "edits {edits:?} stay in the span {:?}", finding.span);
    let grown = fixed.len() as isize - text.len() as isize;
    assert_eq!(&fixed[..first], &text[..first], "bytes before the edit kept");
    assert_eq!(&fixed[(last as isize + grown) as usize..], &text[last..], "bytes after the edit kept");
    let again = check(kind, &fixed);
    assert_eq!(findings(&again, code).len(), found.len() - 1, "the fixed finding is gone: {:?}", codes(&again));
    fixed
}

const README: &str = r#"# Serving

Install:

```bash
pip install "sglang[all]"
```

Launch (one typo):

```bash
# start the server
python -m sglang.launch_server --model-path m --tp-szie 2
```

In a terminal, with output:

```console
$ python -m sglang.launch_server --model-path m \
>   --dtype float17
INFO: python -m sglang.launch_server --model-path m --output-line-not-checked
# python -m sglang.launch_server --model-path m --tp-size 2
```

Not shell:

```python
os.system("python -m sglang.launch_server --model-path m --python-not-checked")
```

Indented:

    python -m sglang.launch_server --model-path m --dtype float17

> ```sh
> python -m sglang.launch_server \
>   --model-path m --tp-szie 4
> ```

- In a list:

  ~~~~ {.bash}
  echo '```'
  sglang serve --model-path m --tp-szie 8
  ~~~~
"#;

#[test]
fn markdown_blocks_are_read_by_language_with_prompts_and_output_removed() {
    let report = check(Kind::Markdown, README);
    assert_eq!(
        places(&report),
        vec![
            (13, 1), // bash: `# start the server` is a comment, the launch below it
            (19, 3), // console: after the `$ ` prompt
            (22, 3), // console: `# ` root prompt
            (33, 5), // indented code block
            (36, 3), // blockquote, after `> `
            (44, 3), // list item, tilde fence of four holding a ``` line
        ]
    );
    // output lines and the python block are not checked
    for c in &report.commands {
        assert!(!c.command.argv.iter().any(|a| a.contains("not-checked")), "{:?}", c.command.argv);
    }
    assert!(!report.accepted);
    let typos = findings(&report, "ARG008");
    let spans: Vec<&str> = typos.iter().map(|d| spanned(README, d)).collect();
    assert_eq!(spans, vec!["--tp-szie 2", "--tp-szie 4", "--tp-szie 8"]);
    let dtypes: Vec<&str> = findings(&report, "ARG005").iter().map(|d| spanned(README, d)).collect();
    assert_eq!(dtypes, vec!["float17", "float17"]);
    // the console command's span runs from after its prompt over its continuation line
    let console = &report.commands[1].command;
    assert!(README[console.span.start..console.span.end].starts_with("python -m sglang.launch_server --model-path m \\\n>   --dtype float17"));
    assert_eq!(report.suppressed, 0);
}

#[test]
fn markdown_fixes_edit_the_file_in_place() {
    // in a plain block, a console block's continuation, an indented block, a blockquote, a list
    let fixed = apply_fix(Kind::Markdown, README, "ARG008", 0);
    assert!(fixed.contains("--model-path m --tp-size 2\n```"));
    let fixed = apply_fix(Kind::Markdown, &fixed, "ARG005", 0);
    assert!(fixed.contains(">   --dtype float16\n"));
    let fixed = apply_fix(Kind::Markdown, &fixed, "ARG005", 0);
    assert!(fixed.contains("    python -m sglang.launch_server --model-path m --dtype float16\n"));
    let fixed = apply_fix(Kind::Markdown, &fixed, "ARG008", 0);
    assert!(fixed.contains(">   --model-path m --tp-size 4\n"));
    let fixed = apply_fix(Kind::Markdown, &fixed, "ARG008", 0);
    assert!(fixed.contains("  sglang serve --model-path m --tp-size 8\n"));
    let report = check(Kind::Markdown, &fixed);
    assert!(report.accepted, "{:?}", codes(&report));
    assert_eq!(report.commands.len(), 6);
}

#[test]
fn mdx_fences_indented_inside_jsx_are_fenced_blocks() {
    let text = r#"import Tabs from '@theme/Tabs';

<Tabs>
  <TabItem value="bash">

    ```bash
    python -m sglang.launch_server --model-path m --tp-szie 2
    ```

    ```python
    print("python -m sglang.launch_server --python-not-checked")
    ```

  </TabItem>
</Tabs>
"#;
    let report = check(Kind::Markdown, text);
    assert_eq!(places(&report), vec![(7, 5)]);
    let fixed = apply_fix(Kind::Markdown, text, "ARG008", 0);
    assert!(fixed.contains("    python -m sglang.launch_server --model-path m --tp-size 2\n"));
}

#[test]
fn a_bash_block_with_dollar_prompts_is_a_terminal_session() {
    let text = "```bash\n$ export MODEL=m\n$ python -m sglang.launch_server --model-path $MODEL --dtype float17\nServer started\n```\n";
    let report = check(Kind::Markdown, text);
    assert_eq!(places(&report), vec![(3, 3)]);
    assert_eq!(findings(&report, "ARG005").iter().map(|d| spanned(text, d)).collect::<Vec<_>>(), vec!["float17"]);
}

#[test]
fn an_unterminated_fence_runs_to_the_end_of_the_file() {
    let text = "Intro\n\n```bash\npython -m sglang.launch_server --model-path m --tp-szie 2";
    let report = check(Kind::Markdown, text);
    assert_eq!(places(&report), vec![(4, 1)]);
    let fixed = apply_fix(Kind::Markdown, text, "ARG008", 0);
    assert!(fixed.ends_with("--tp-size 2"));
}

#[test]
fn docs_without_launches_are_quiet() {
    let text = "# Title\n\n```bash\npip install sglang\nls -la\n```\n\nSome text with `sglang serve` inline.\n";
    let report = check(Kind::Markdown, text);
    assert!(report.accepted);
    assert!(report.commands.is_empty());
    assert!(report.diagnostics.is_empty(), "no P0002 for a doc: {:?}", report.diagnostics);
}

#[test]
fn shell_errors_that_hide_a_launch_are_reported_at_their_place() {
    let text = "```bash\necho \"starting\npython -m sglang.launch_server --model-path m\n```\n\n```bash\necho \"an unrelated broken quote\n```\n";
    let report = check(Kind::Markdown, text);
    assert!(report.commands.is_empty());
    let [finding] = &report.diagnostics[..] else { panic!("{:?}", report.diagnostics) };
    assert_eq!((finding.code.as_str(), &text[finding.span.start..finding.span.end]), ("SH003", "\""));
    assert_eq!(finding.span.start, text.find('"').unwrap());
    assert!(report.accepted, "no launch was found that SGLang would reject");
}

#[test]
fn an_sglang_release_this_build_does_not_carry_is_not_a_pass() {
    let opts = CheckOptions { sglang_version: "0.0.1".to_string(), ..CheckOptions::default() };
    let report = check_file("README.md", Kind::Markdown, README, &opts);
    assert!(!report.accepted);
    assert_eq!(report.diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), vec!["P0001"]);
}

const RST: &str = "Serving
=======

.. code-block:: bash
   :caption: Launch
   :linenos:

   python -m sglang.launch_server --model-path m --tp-szie 2

.. code:: python

   subprocess.run('python -m sglang.launch_server --python-not-checked')

.. tab:: Terminal

   In a terminal::

       $ python -m sglang.launch_server --model-path m \\
           --dtype float17
       INFO: started --output-not-checked

.. sourcecode:: console

   # sglang serve --model-path m --tp-size 2
";

#[test]
fn rst_code_blocks_and_literal_blocks_are_read() {
    let report = check(Kind::Rst, RST);
    assert_eq!(places(&report), vec![(8, 4), (18, 10), (24, 6)]);
    for c in &report.commands {
        assert!(!c.command.argv.iter().any(|a| a.contains("not-checked")), "{:?}", c.command.argv);
    }
    assert_eq!(findings(&report, "ARG008").iter().map(|d| spanned(RST, d)).collect::<Vec<_>>(), vec!["--tp-szie 2"]);
    assert_eq!(findings(&report, "ARG005").iter().map(|d| spanned(RST, d)).collect::<Vec<_>>(), vec!["float17"]);
    let fixed = apply_fix(Kind::Rst, RST, "ARG008", 0);
    let fixed = apply_fix(Kind::Rst, &fixed, "ARG005", 0);
    assert!(fixed.contains("   python -m sglang.launch_server --model-path m --tp-size 2\n"));
    assert!(fixed.contains("           --dtype float16\n"));
    assert!(check(Kind::Rst, &fixed).accepted);
}

/// A notebook as Jupyter writes it: a markdown cell (not read), a Python cell with a `!` launch
/// continued over two lines, a `%%bash` cell with escaped quotes, a cell whose flag is written
/// with a JSON escape, and a Python string holding a launch (read once, though a `!` line
/// quotes one too).
const NOTEBOOK: &str = r#"{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": ["Run `python -m sglang.launch_server --markdown-not-checked`"]
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "metadata": {},
   "outputs": [],
   "source": [
    "import os\n",
    "!python -m sglang.launch_server --model-path m \\\n",
    "    --tp-szie 2\n",
    "print('sglang.launch_server --python-not-checked')"
   ]
  },
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": [
    "%%bash\n",
    "echo \"starting\"\n",
    "python -m sglang.launch_server --model-path \"my model\" --dtype float17\n"
   ]
  },
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": "!sglang serve --model-path m --tp-s\u007aie 4"
  },
  {
   "cell_type": "code",
   "metadata": {},
   "outputs": [],
   "source": [
    "server_process, port = launch_server_cmd(  # as SGLang's docs start servers\n",
    "    \"\"\"\n",
    "python3 -m sglang.launch_server --model-path m \\\n",
    "    --mem-fraction 0.6 --dtype float17\n",
    "\"\"\"\n",
    ")\n",
    "!bash -c 'python -m sglang.launch_server --model-path m'"
   ]
  }
 ],
 "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"#;

#[test]
fn notebook_bang_lines_and_bash_cells_are_read() {
    let report = check(Kind::Notebook, NOTEBOOK);
    assert_eq!(places(&report), vec![(15, 7), (27, 6), (34, 16), (43, 6), (47, 16)]);
    assert_eq!(report.commands[1].command.argv[..2], ["--model-path".to_string(), "my model".to_string()]);
    for c in &report.commands {
        assert!(!c.command.argv.iter().any(|a| a.contains("not-checked")), "{:?}", c.command.argv);
    }
    let typos: Vec<&str> = findings(&report, "ARG008").iter().map(|d| spanned(NOTEBOOK, d)).collect();
    // a span over an escape covers the escape as written
    assert_eq!(typos, vec!["--tp-szie 2", "--tp-s\\u007aie 4"]);
    assert_eq!(findings(&report, "ARG005").iter().map(|d| spanned(NOTEBOOK, d)).collect::<Vec<_>>(), vec!["float17", "float17"]);
}

#[test]
fn notebook_fixes_are_written_into_the_json_string() {
    let fixed = apply_fix(Kind::Notebook, NOTEBOOK, "ARG008", 0);
    let fixed = apply_fix(Kind::Notebook, &fixed, "ARG005", 0);
    let fixed = apply_fix(Kind::Notebook, &fixed, "ARG005", 0);
    assert!(fixed.contains("\"    --mem-fraction 0.6 --dtype float16\\n\",\n"));
    assert!(fixed.contains("\"    --tp-size 2\\n\",\n"));
    assert!(fixed.contains("--model-path \\\"my model\\\" --dtype float16\\n\""));
    let json: serde_json::Value = serde_json::from_str(&fixed).expect("still a notebook");
    assert_eq!(json["cells"][1]["source"][2], "    --tp-size 2\n");
    // an edit over an escape cannot be written as it stands: it is advice
    let report = check(Kind::Notebook, &fixed);
    let escaped = findings(&report, "ARG008");
    assert_eq!(escaped.len(), 1);
    assert!(escaped[0].fixes.iter().all(|f| f.edits.is_empty() && f.applicability == Applicability::Display), "{:?}", escaped[0].fixes);
    assert!(escaped[0].fixes.iter().any(|f| f.title.contains("--tp-size")));
}

#[test]
fn a_notebook_with_a_shell_kernel_is_read_as_scripts() {
    let text = r#"{"cells": [{"cell_type": "code", "source": ["python -m sglang.launch_server --model-path m --dtype float17\n"]}],
 "metadata": {"kernelspec": {"language": "bash"}}}"#;
    let report = check(Kind::Notebook, text);
    assert_eq!(places(&report), vec![(1, 46)]);
}

#[test]
fn a_notebook_that_is_not_json_is_a_finding() {
    let text = "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"!python -m sglang.launch_server --tp-size 2\"]}\n";
    let report = check(Kind::Notebook, text);
    assert!(!report.accepted);
    assert!(report.commands.is_empty());
    let [finding] = &report.diagnostics[..] else { panic!("{:?}", report.diagnostics) };
    assert_eq!(finding.code, "SRC001");
    assert!(finding.message.starts_with("This notebook is not valid JSON (EOF while parsing a list at line 2 column 0)"), "{}", finding.message);
    // a broken notebook that never mentions SGLang is none of our business
    assert!(check(Kind::Notebook, "{\"cells\": [").diagnostics.is_empty());
}

const L: &str = "python -m sglang.launch_server --model-path m --tp-szie 2 --dtype float17";

#[test]
fn an_ignore_comment_on_the_command_line_drops_the_codes_it_names() {
    let text = format!("{L}  # sglang-preflight: ignore[ARG008, ARG005]\n");
    let report = check(Kind::Shell, &text);
    assert_eq!(codes(&report), Vec::<String>::new());
    assert_eq!(report.suppressed, 2);
    assert!(report.accepted, "a command whose only errors were suppressed counts as accepted");
}

#[test]
fn an_ignore_comment_above_the_command_drops_only_its_codes() {
    let text = format!("# sglang-preflight: ignore[ARG005]\n{L}\n");
    let report = check(Kind::Shell, &text);
    assert_eq!(codes(&report), vec!["ARG008"]);
    assert_eq!(report.suppressed, 1);
    assert!(!report.accepted);
}

#[test]
fn an_ignore_comment_without_codes_drops_every_finding() {
    let report = check(Kind::Shell, &format!("# sglang-preflight: ignore\n\n{L}\n"));
    assert!(codes(&report).is_empty());
    assert_eq!(report.suppressed, 2);
    assert!(report.accepted);
}

#[test]
fn an_ignore_comment_only_reaches_the_next_launch() {
    // separated by another line, or trailing on the previous command's line: not this one
    let text = format!("# sglang-preflight: ignore\necho hi\n{L}\n{L} # sglang-preflight: ignore\n{L}\n");
    let report = check(Kind::Shell, &text);
    let per_command: Vec<usize> = report.commands.iter().map(|c| c.command.diagnostics.len()).collect();
    assert_eq!(per_command, vec![2, 0, 2]);
    // nor does a word that merely starts like the directive
    let report = check(Kind::Shell, &format!("# sglang-preflight: ignored\n{L}\n"));
    assert_eq!(report.suppressed, 0);
}

#[test]
fn ignore_comments_above_markdown_and_rst_blocks() {
    let md = format!("<!-- sglang-preflight: ignore[ARG008] -->\n```bash\n{L}\n```\n\n```bash\n{L}\n```\n");
    let report = check(Kind::Markdown, &md);
    assert_eq!(codes(&report), vec!["ARG005", "ARG005", "ARG008"]);
    assert_eq!(report.suppressed, 1);
    let rst = format!(".. sglang-preflight: ignore[ARG005]\n\n.. code-block:: bash\n   :caption: x\n\n   {L}\n");
    let report = check(Kind::Rst, &rst);
    assert_eq!(codes(&report), vec!["ARG008"]);
    let nb = format!(r##"{{"cells": [{{"cell_type": "code", "source": ["# sglang-preflight: ignore[ARG008]\n", "!{L}"]}}]}}"##);
    let report = check(Kind::Notebook, &nb);
    assert_eq!(codes(&report), vec!["ARG005"]);
}

#[test]
fn configured_ignores_drop_findings_everywhere() {
    let text = format!("```bash\n{L}\n```\n");
    let report = check_file_with("README.md", Kind::Markdown, &text, &CheckOptions::default(), &["ARG008".to_string(), "ARG005".to_string()]);
    assert!(codes(&report).is_empty());
    assert_eq!(report.suppressed, 2);
    assert!(report.accepted);
}

/// Within `limit`, or the test fails naming what was slow.
fn quick<T>(what: &str, limit: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(start.elapsed() < limit, "{what} took {:?}", start.elapsed());
    out
}

#[test]
fn hostile_documents_neither_panic_nor_take_long() {
    let limit = Duration::from_secs(5);
    let mb = 1 << 20;
    let backticks = "`".repeat(mb);
    quick("1 MB of backticks", limit, || check(Kind::Markdown, &backticks));
    let fences = "```\n".repeat(mb / 4);
    quick("a quarter million fences", limit, || check(Kind::Markdown, &fences));
    let quotes = format!("{}```bash\n{L}\n```\n", "> ".repeat(mb / 2));
    quick("deeply nested blockquotes", limit, || check(Kind::Markdown, &quotes));
    let lists = format!("{}```bash\n{L}\n", "- ".repeat(mb / 2));
    quick("deeply nested lists", limit, || check(Kind::Markdown, &lists));
    let many = format!("```bash\n{L}\n```\n").repeat(2000);
    let report = quick("2000 blocks with launches", Duration::from_secs(30), || check(Kind::Markdown, &many));
    assert_eq!(report.commands.len(), 2000);
    let one_line = format!("{L}; ").repeat(2000);
    quick("2000 launches on one line", Duration::from_secs(30), || check(Kind::Shell, &one_line));
    let literal = format!("x::\n\n{}", "    sglang\n".repeat(mb / 11));
    quick("a huge literal block", limit, || check(Kind::Rst, &literal));
    let directives = ".. code-block:: bash\n".repeat(mb / 21);
    quick("a quarter million directives", limit, || check(Kind::Rst, &directives));
    // notebooks: deep nesting, unterminated strings, escapes everywhere, lone surrogates
    let deep = format!("{{\"sglang\": {}{}}}", "[".repeat(mb / 2), "]".repeat(mb / 2));
    let report = quick("deeply nested JSON", limit, || check(Kind::Notebook, &deep));
    assert_eq!(report.diagnostics[0].code, "SRC001");
    let unterminated = format!("{{\"cells\": [{{\"cell_type\": \"code\", \"source\": \"!sglang serve {}", "\\n".repeat(mb / 2));
    quick("an unterminated string", limit, || check(Kind::Notebook, &unterminated));
    let escapes = format!(r#"{{"cells": [{{"cell_type": "code", "source": "!python -m sglang.launch_server --model-path m{}"}}]}}"#, "\\ud800\\u0041\\\"".repeat(mb / 16));
    quick("a string of escapes", limit, || check(Kind::Notebook, &escapes));
    for text in ["", "{", "[]", "\"sglang\"", "{\"cells\": 3, \"x\": \"sglang\"}", "{\"cells\": [{\"cell_type\": \"code\", \"source\": [1, \"!sglang serve m\"]}]}"] {
        check(Kind::Notebook, text);
        check(Kind::Markdown, text);
        check(Kind::Rst, text);
    }
}
