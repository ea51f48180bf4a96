//! Project settings: `sglang-preflight.toml`, `.sglang-preflight.toml` or `pyproject.toml`'s
//! `[tool.sglang-preflight]`, found from the current directory upward (the first directory
//! holding one wins, as with Ruff), overridden by the command line.
//!
//! ```toml
//! sglang-version = "0.5.23"
//! gpu = "h200"
//! gpus = 4
//! ignore = ["ARG009", "TXT"]     # codes, or a family's letters
//! include = ["deploy/**"]        # relative to the settings file's directory
//! exclude = ["vendor/**"]
//! ```

use super::args::CheckArgs;
use sglang_preflight::hardware::{Hardware, PRESETS};
use sglang_preflight::schema::{DEFAULT_VERSION, SUPPORTED_VERSIONS};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

const FILE_NAMES: [&str; 3] = ["sglang-preflight.toml", ".sglang-preflight.toml", "pyproject.toml"];
const KEYS: [&str; 6] = ["sglang-version", "gpu", "gpus", "ignore", "include", "exclude"];

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Default,
    File(PathBuf),
    CommandLine,
}

impl Source {
    fn describe(&self) -> String {
        match self {
            Source::Default => "default".into(),
            Source::File(path) => path.display().to_string(),
            Source::CommandLine => "command line".into(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Setting<T> {
    pub value: T,
    pub source: Source,
}

/// Globs and the directory they are relative to.
#[derive(Debug, Clone)]
pub struct Globs {
    pub base: PathBuf,
    pub source: Source,
    pub patterns: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Settings {
    /// The settings file read, if any.
    pub file: Option<PathBuf>,
    pub sglang_version: Setting<String>,
    pub gpu: Setting<String>,
    pub gpus: Setting<Option<u32>>,
    /// Codes (or families) whose findings are dropped, each with where it was asked for.
    pub ignore: Vec<Setting<String>>,
    pub include: Vec<Globs>,
    pub exclude: Vec<Globs>,
}

impl Settings {
    /// The settings for this run: defaults, then the settings file, then the command line.
    pub fn resolve(args: &CheckArgs, cwd: &Path) -> Result<Settings, String> {
        let found = if args.no_settings {
            None
        } else if let Some(named) = &args.settings {
            let path = cwd.join(named);
            let table = read_table(&path)?.ok_or_else(|| format!("{}: no [tool.sglang-preflight] table", path.display()))?;
            Some((path, table))
        } else {
            discover(cwd)?
        };
        let mut settings = Settings {
            file: None,
            sglang_version: Setting { value: DEFAULT_VERSION.to_string(), source: Source::Default },
            gpu: Setting { value: "h100".into(), source: Source::Default },
            gpus: Setting { value: None, source: Source::Default },
            ignore: Vec::new(),
            include: Vec::new(),
            exclude: Vec::new(),
        };
        if let Some((path, table)) = found {
            settings.apply_file(&path, &table)?;
            settings.file = Some(path);
        }
        settings.apply_command_line(args, cwd)?;
        Ok(settings)
    }

    fn apply_file(&mut self, path: &Path, table: &toml::Table) -> Result<(), String> {
        let source = Source::File(path.to_path_buf());
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let at = |key: &str| format!("{}: `{key}`", path.display());
        for (key, value) in table {
            match key.as_str() {
                "sglang-version" => {
                    let v = value.as_str().ok_or_else(|| format!("{} must be a string", at(key)))?;
                    self.sglang_version = Setting { value: check_version(v).map_err(|e| format!("{}: {e}", at(key)))?, source: source.clone() };
                }
                "gpu" => {
                    let v = value.as_str().ok_or_else(|| format!("{} must be a string", at(key)))?;
                    self.gpu = Setting { value: check_gpu(v).map_err(|e| format!("{}: {e}", at(key)))?, source: source.clone() };
                }
                "gpus" => {
                    let n = value.as_integer().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| format!("{} must be a whole number of GPUs", at(key)))?;
                    self.gpus = Setting { value: Some(n), source: source.clone() };
                }
                "ignore" | "include" | "exclude" => {
                    let items = strings(value).ok_or_else(|| format!("{} must be a list of strings", at(key)))?;
                    match key.as_str() {
                        "ignore" => {
                            for code in items {
                                let code = check_code(&code).map_err(|e| format!("{}: {e}", at(key)))?;
                                self.ignore.push(Setting { value: code, source: source.clone() });
                            }
                        }
                        "include" => self.include.push(Globs { base: base.clone(), source: source.clone(), patterns: checked_globs(items).map_err(|e| format!("{}: {e}", at(key)))? }),
                        _ => self.exclude.push(Globs { base: base.clone(), source: source.clone(), patterns: checked_globs(items).map_err(|e| format!("{}: {e}", at(key)))? }),
                    }
                }
                other => {
                    let known: Vec<String> = KEYS.iter().map(|k| k.to_string()).collect();
                    let hint = sglang_preflight::suggest::closest_choice(other, &known).map(|k| format!(" (did you mean `{k}`?)")).unwrap_or_default();
                    return Err(format!("{}: unknown key `{other}`{hint}; known keys: {}", path.display(), KEYS.join(", ")));
                }
            }
        }
        Ok(())
    }

    fn apply_command_line(&mut self, args: &CheckArgs, cwd: &Path) -> Result<(), String> {
        if let Some(v) = &args.sglang_version {
            self.sglang_version = Setting { value: check_version(v).map_err(|e| format!("--sglang-version: {e}"))?, source: Source::CommandLine };
        }
        if let Some(v) = &args.gpu {
            self.gpu = Setting { value: check_gpu(v).map_err(|e| format!("--gpu: {e}"))?, source: Source::CommandLine };
        }
        if let Some(n) = args.gpus {
            self.gpus = Setting { value: Some(n), source: Source::CommandLine };
        }
        // Lists add to the settings file's: `--ignore X` keeps the project's ignores.
        for code in &args.ignore {
            let code = check_code(code).map_err(|e| format!("--ignore: {e}"))?;
            self.ignore.push(Setting { value: code, source: Source::CommandLine });
        }
        if !args.include.is_empty() {
            let patterns = checked_globs(args.include.clone()).map_err(|e| format!("--include: {e}"))?;
            self.include.push(Globs { base: cwd.to_path_buf(), source: Source::CommandLine, patterns });
        }
        if !args.exclude.is_empty() {
            let patterns = checked_globs(args.exclude.clone()).map_err(|e| format!("--exclude: {e}"))?;
            self.exclude.push(Globs { base: cwd.to_path_buf(), source: Source::CommandLine, patterns });
        }
        Ok(())
    }

    pub fn hardware(&self) -> Hardware {
        // Both were checked when read.
        Hardware::preset(&self.gpu.value, self.gpus.value).unwrap_or_else(Hardware::default_h100)
    }

    /// Every code whose findings are dropped (families expanded to their codes).
    pub fn ignored_codes(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        for entry in &self.ignore {
            if known_codes().contains(&entry.value) {
                out.insert(entry.value.clone());
            } else {
                out.extend(known_codes().into_iter().filter(|c| family(c) == entry.value));
            }
        }
        out.into_iter().collect()
    }

    /// The resolved settings as TOML, each value commented with where it came from.
    pub fn show(&self) -> String {
        let mut out = String::new();
        let file = self.file.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "none".into());
        let _ = writeln!(out, "# settings file: {file}");
        let _ = writeln!(out, "sglang-version = {:?}  # {}", self.sglang_version.value, self.sglang_version.source.describe());
        let _ = writeln!(out, "gpu = {:?}  # {}", self.gpu.value, self.gpu.source.describe());
        match self.gpus.value {
            Some(n) => {
                let _ = writeln!(out, "gpus = {n}  # {}", self.gpus.source.describe());
            }
            None => {
                let _ = writeln!(out, "# gpus: the preset's ({})", self.hardware().summary());
            }
        }
        let _ = writeln!(out, "ignore = [");
        for entry in &self.ignore {
            let _ = writeln!(out, "    {:?},  # {}", entry.value, entry.source.describe());
        }
        let _ = writeln!(out, "]");
        for (key, lists) in [("include", &self.include), ("exclude", &self.exclude)] {
            let _ = writeln!(out, "{key} = [");
            for globs in lists {
                for pattern in &globs.patterns {
                    let _ = writeln!(out, "    {pattern:?},  # {} (relative to {})", globs.source.describe(), globs.base.display());
                }
            }
            let _ = writeln!(out, "]");
        }
        out
    }
}

/// The settings of the nearest directory, from `cwd` upward, that has a settings file.
fn discover(cwd: &Path) -> Result<Option<(PathBuf, toml::Table)>, String> {
    for dir in cwd.ancestors() {
        for name in FILE_NAMES {
            let path = dir.join(name);
            if path.is_file() {
                // A pyproject.toml without our table does not stop the search.
                if let Some(table) = read_table(&path)? {
                    return Ok(Some((path, table)));
                }
            }
        }
    }
    Ok(None)
}

/// The settings table of a settings file: the whole file, or pyproject's `[tool.sglang-preflight]`.
fn read_table(path: &Path) -> Result<Option<toml::Table>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| format!("{}: {}", path.display(), e.to_string().trim_end()))?;
    if path.file_name().is_some_and(|n| n == "pyproject.toml") {
        let tool = table.remove("tool").and_then(|t| match t {
            toml::Value::Table(mut t) => t.remove("sglang-preflight"),
            _ => None,
        });
        return match tool {
            Some(toml::Value::Table(t)) => Ok(Some(t)),
            Some(_) => Err(format!("{}: [tool.sglang-preflight] must be a table", path.display())),
            None => Ok(None),
        };
    }
    Ok(Some(table))
}

fn strings(value: &toml::Value) -> Option<Vec<String>> {
    value.as_array()?.iter().map(|v| v.as_str().map(str::to_string)).collect()
}

pub fn check_version(v: &str) -> Result<String, String> {
    if sglang_preflight::schema::get(v).is_some() {
        Ok(v.to_string())
    } else {
        Err(format!("SGLang {v} is not supported (supported: {})", SUPPORTED_VERSIONS.join(", ")))
    }
}

fn check_gpu(v: &str) -> Result<String, String> {
    if Hardware::preset(v, None).is_some() {
        return Ok(v.to_string());
    }
    let names: Vec<String> = PRESETS.iter().map(|p| p.preset.to_string()).collect();
    let hint = sglang_preflight::suggest::closest_choice(v, &names).map(|k| format!(" (did you mean {k}?)")).unwrap_or_default();
    Err(format!("unknown GPU preset {v:?}{hint}; presets: {}", names.join(" ")))
}

fn family(code: &str) -> &str {
    code.trim_end_matches(|c: char| c.is_ascii_digit())
}

fn known_codes() -> BTreeSet<String> {
    let rules = sglang_preflight::rules::all_rules().into_iter().map(|r| r.code.to_string());
    rules.chain(sglang_preflight::codes::CODES.iter().map(|c| c.code.to_string())).collect()
}

/// A code or a family's letters (`TXT`) that some finding has.
fn check_code(code: &str) -> Result<String, String> {
    let code = code.trim().to_ascii_uppercase();
    let known = known_codes();
    if known.contains(&code) || known.iter().any(|c| family(c) == code) {
        return Ok(code);
    }
    let list: Vec<String> = known.into_iter().collect();
    let hint = sglang_preflight::suggest::closest_choice(&code, &list).map(|k| format!(" (did you mean {k}?)")).unwrap_or_default();
    Err(format!("unknown code {code:?}{hint}; see docs/rules.md"))
}

fn checked_globs(patterns: Vec<String>) -> Result<Vec<String>, String> {
    for p in &patterns {
        globset::Glob::new(p).map_err(|e| format!("bad glob {p:?}: {e}"))?;
    }
    Ok(patterns)
}
