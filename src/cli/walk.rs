//! Which files to check: the paths named, and the files under the directories named, walked
//! as git sees them (`.gitignore`, `.ignore` and `.git/info/exclude` honoured, hidden files and
//! directories skipped), filtered by the include / exclude globs.

use super::settings::Globs;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use sglang_preflight::sources::Kind;
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// A file to check.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub path: PathBuf,
    /// The path as reports show it (as named, or under the directory as named).
    pub display: String,
    pub kind: Kind,
    /// Named on the command line (not found by a walk): a file that cannot be read is then a
    /// usage error, as it always was.
    pub named: bool,
}

/// Glob sets, each matched relative to its own directory.
#[derive(Clone)]
pub struct Patterns {
    sets: Vec<(PathBuf, GlobSet)>,
}

impl Patterns {
    pub fn new(globs: &[Globs]) -> Result<Patterns, String> {
        let mut sets = Vec::new();
        for g in globs {
            let mut builder = GlobSetBuilder::new();
            for p in &g.patterns {
                // `*` crosses `/` as in .gitignore-less tools (`*.md` matches `docs/a.md`).
                builder.add(GlobBuilder::new(p).build().map_err(|e| format!("bad glob {p:?}: {e}"))?);
            }
            sets.push((g.base.clone(), builder.build().map_err(|e| e.to_string())?));
        }
        Ok(Patterns { sets })
    }

    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// Whether the path (absolute), relative to a set's directory, or its file name, matches.
    pub fn matches(&self, absolute: &Path) -> bool {
        let name = absolute.file_name().map(Path::new);
        self.sets.iter().any(|(base, set)| {
            let relative = absolute.strip_prefix(base).unwrap_or(absolute);
            set.is_match(relative) || name.is_some_and(|n| set.is_match(n))
        })
    }
}

/// `path` made absolute against `cwd`, with `.` and `..` resolved by name (no file system).
pub fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in cwd.join(path).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// How a path is shown: as written, without a leading `./`.
fn display(path: &Path) -> String {
    let shown = path.to_string_lossy();
    let mut s: &str = &shown;
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    if s.is_empty() { ".".to_string() } else { s.to_string() }
}

/// The files to check under `paths`, in order (each directory's files sorted by name), each once.
/// A path that does not exist is a usage error.
pub fn collect(paths: &[String], cwd: &Path, include: &Patterns, exclude: &Patterns) -> Result<Vec<Candidate>, String> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for named in paths {
        let path = PathBuf::from(named);
        let meta = std::fs::metadata(&path).map_err(|e| format!("cannot read {named}: {e}"))?;
        if !meta.is_dir() {
            if exclude.matches(&absolute(cwd, &path)) {
                continue;
            }
            let display = display(&path);
            if seen.insert(absolute(cwd, &path)) {
                out.push(Candidate { kind: Kind::of_path(&display).unwrap_or(Kind::Shell), path, display, named: true });
            }
            continue;
        }
        // The walker's filter outlives this call: it gets its own copies.
        let (filter_cwd, filter_exclude) = (cwd.to_path_buf(), exclude.clone());
        let excluded = move |p: &Path| exclude_matches(&filter_exclude, &filter_cwd, p);
        let walker = ignore::WalkBuilder::new(&path)
            .hidden(true)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(false)
            // .gitignore counts outside a git work tree too (a fresh checkout without .git, a tarball).
            .require_git(false)
            .sort_by_file_name(|a, b| a.cmp(b))
            .filter_entry(move |entry| entry.depth() == 0 || !excluded(entry.path()))
            .build();
        for entry in walker {
            // An unreadable directory inside a walk is skipped, as git skips it.
            let Ok(entry) = entry else { continue };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let file = entry.path();
            let absolute = absolute(cwd, file);
            let included = !include.is_empty() && include.matches(&absolute);
            if !include.is_empty() && !included {
                continue;
            }
            let display = display(file);
            // Files of no known kind are skipped quietly, unless an include glob names them.
            let Some(kind) = Kind::of_path(&display).or(included.then_some(Kind::Shell)) else { continue };
            if seen.insert(absolute) {
                out.push(Candidate { path: file.to_path_buf(), display, kind, named: false });
            }
        }
    }
    Ok(out)
}

fn exclude_matches(exclude: &Patterns, cwd: &Path, path: &Path) -> bool {
    !exclude.is_empty() && exclude.matches(&absolute(cwd, path))
}
