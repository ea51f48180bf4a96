//! Fix all: apply the fixes the checks offer, check again, repeat (the CLI's `--fix` and `--diff`,
//! the page's "Apply all safe fixes"). Besides the fixed text, the result is the combined edits
//! against the text as it was, so a caller can apply them as one change (one undo) and show
//! exactly which bytes changed: every byte outside those edits stays as it was.

use crate::diagnostic::{apply_edits, Applicability, Diagnostic, Edit};
use std::collections::BTreeMap;

/// Fixing can uncover findings the first check could not reach (SGLang stops at its first
/// error); a fix that undoes another would go on for ever: stop after this many rounds.
pub const MAX_ROUNDS: usize = 10;

/// What fixing a text came to.
#[derive(Debug, Clone)]
pub struct FixedText<R> {
    pub text: String,
    /// Findings whose fix was applied, over all rounds.
    pub applied: usize,
    /// Rounds that changed the text.
    pub rounds: usize,
    /// The edits that turn the original text into `text`: byte offsets into the original,
    /// sorted, pairwise apart (an edit of one round that touches an earlier one is merged with
    /// it), each a change (none writes the bytes it spans).
    pub edits: Vec<Edit>,
    /// The check of the text as it was.
    pub first: R,
    /// The check of the fixed text.
    pub last: R,
}

/// Apply fixes to `text` round by round: in each, per finding (of `findings(report)`, in order)
/// the first fix of an allowed applicability (safe; unsafe too with `unsafe_fixes`) that has
/// edits, skipping those that overlap or touch one already taken (the next round's check offers
/// them again), and those after which the text would no longer be a text of its kind
/// (`keeps(before, after)`: YAML that still parses, ...).
pub fn fix_all<R: Clone>(
    text: &str,
    unsafe_fixes: bool,
    check: impl Fn(&str) -> R,
    findings: impl Fn(&R) -> Vec<&Diagnostic>,
    keeps: impl Fn(&str, &str) -> bool,
) -> FixedText<R> {
    let first = check(text);
    let mut current = text.to_string();
    let mut last = first.clone();
    let mut applied = 0;
    let mut rounds = 0;
    let mut combined: Vec<Edit> = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let groups = choose_edits(&findings(&last), &current, unsafe_fixes);
        // Each finding's edits are kept only if the text stays readable with them.
        let mut edits: Vec<Edit> = Vec::new();
        let mut taken = 0;
        for group in groups {
            let trial: Vec<Edit> = edits.iter().chain(group.iter()).cloned().collect();
            if apply_edits(&current, &trial).is_some_and(|t| keeps(&current, &t)) {
                edits = trial;
                taken += 1;
            }
        }
        let Some(next) = (taken > 0).then(|| apply_edits(&current, &edits)).flatten() else { break };
        if next == current {
            break;
        }
        combined = compose(&current, combined, edits);
        current = next;
        applied += taken;
        rounds += 1;
        last = check(&current);
    }
    // A later round that undid an earlier one (a flag added, then removed) leaves an edit that
    // writes what was there: no change, so no edit.
    combined.retain(|e| text.get(e.start..e.end) != Some(e.replacement.as_str()));
    FixedText { text: current, applied, rounds, edits: combined, first, last }
}

/// The edits to apply to `text` this round, one group per finding they fix.
pub fn choose_edits(findings: &[&Diagnostic], text: &str, unsafe_fixes: bool) -> Vec<Vec<Edit>> {
    // Taken edits by start, pairwise apart (not even touching): a closed-interval set.
    let mut taken: BTreeMap<usize, usize> = BTreeMap::new();
    let mut groups = Vec::new();
    let allowed = |a: Applicability| a == Applicability::Safe || (unsafe_fixes && a == Applicability::Unsafe);
    let fits = |e: &Edit| e.start <= e.end && e.end <= text.len() && text.is_char_boundary(e.start) && text.is_char_boundary(e.end);
    let apart_from = |set: &BTreeMap<usize, usize>, e: &Edit| set.range(..=e.end).next_back().map_or(true, |(_, &end)| end < e.start);
    for d in findings {
        let Some(fix) = d.fixes.iter().find(|f| allowed(f.applicability) && !f.edits.is_empty()) else { continue };
        let edits = joined(&fix.edits);
        let mut trial = taken.clone();
        let mut ok = true;
        for e in &edits {
            if !fits(e) || !apart_from(&trial, e) {
                ok = false;
                break;
            }
            trial.insert(e.start, e.end);
        }
        if ok {
            taken = trial;
            groups.push(edits);
        }
    }
    groups
}

/// One fix's edits, in order, with those that meet end to start written as one (what applying
/// both does): the edits of a round are kept apart, and a fix may well remove two flags side by side.
fn joined(edits: &[Edit]) -> Vec<Edit> {
    let mut sorted = edits.to_vec();
    crate::sorting::sort_by_key(&mut sorted, |e| (e.start, e.end));
    let mut out: Vec<Edit> = Vec::with_capacity(sorted.len());
    for e in sorted {
        match out.last_mut() {
            Some(last) if last.end == e.start && e.start < e.end && last.start < last.end => {
                last.end = e.end;
                last.replacement.push_str(&e.replacement);
            }
            _ => out.push(e),
        }
    }
    out
}

/// `combined` (edits of the original text that gave `current`) followed by `next` (edits of
/// `current`, pairwise apart), as edits of the original text. An edit of `next` that overlaps
/// or touches what an earlier edit wrote is merged with it.
fn compose(current: &str, mut combined: Vec<Edit>, mut next: Vec<Edit>) -> Vec<Edit> {
    let growth = |c: &Edit| c.replacement.len() as isize - (c.end - c.start) as isize;
    // From the end backwards: an edit never moves the positions before it. `text` is the text
    // with the edits composed so far (the combined edits describe it).
    crate::sorting::sort_by_key(&mut next, |e| std::cmp::Reverse((e.start, e.end)));
    let mut text = current.to_string();
    for e in next {
        let after = apply_edits(&text, std::slice::from_ref(&e));
        // Where each combined edit's replacement is in `current`.
        let mut delta: isize = 0;
        let mut placed: Vec<(usize, usize)> = Vec::with_capacity(combined.len());
        for c in &combined {
            let at = c.start.saturating_add_signed(delta);
            placed.push((at, at + c.replacement.len()));
            delta += growth(c);
        }
        // Every combined edit is wholly before `e`, touches it, or is wholly after it.
        let before = placed.iter().filter(|p| p.1 < e.start).count();
        let touching = placed.iter().skip(before).take_while(|p| p.0 <= e.end).count();
        let shift: isize = combined.iter().take(before).map(growth).sum();
        let (first, last) = (placed.get(before), placed.get(before + touching.max(1) - 1));
        let merged = match (touching, first, last, combined.get(before), combined.get(before + touching.max(1) - 1)) {
            (1.., Some(&(lo_at, _)), Some(&(_, hi_end)), Some(lo), Some(hi)) => {
                // One edit from the first touched to the last: the original bytes they and the
                // text between span, and what is there after `e`.
                let start = if e.start < lo_at { lo.start - (lo_at - e.start) } else { lo.start };
                let end = if e.end > hi_end { hi.end + (e.end - hi_end) } else { hi.end };
                let mut replacement = String::new();
                replacement.push_str(text.get(e.start.min(lo_at)..e.start).unwrap_or_default());
                replacement.push_str(&e.replacement);
                replacement.push_str(text.get(e.end..e.end.max(hi_end)).unwrap_or_default());
                Edit { start, end, replacement }
            }
            // Only original bytes around it: shifted back by the edits before it.
            _ => Edit { start: e.start.saturating_add_signed(-shift), end: e.end.saturating_add_signed(-shift), replacement: e.replacement },
        };
        combined.splice(before..before + touching, [merged]);
        if let Some(after) = after {
            text = after;
        }
    }
    combined
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)] // a failed expectation fails the test
mod tests {
    use super::*;
    use crate::diagnostic::{Fix, Severity, Stage};
    use crate::span::Span;

    fn finding(fixes: Vec<Fix>) -> Diagnostic {
        let mut d = Diagnostic::preflight("TXT003", Severity::Warning, Stage::Shell, "m", Span::empty_at(0));
        d.fixes = fixes;
        d
    }

    fn fix_of(applicability: Applicability, edits: &[(usize, usize, &str)]) -> Fix {
        Fix { title: "t".into(), applicability, edits: edits.iter().map(|&(start, end, r)| edit(start, end, r)).collect() }
    }

    fn edit(start: usize, end: usize, replacement: &str) -> Edit {
        Edit { start, end, replacement: replacement.into() }
    }

    fn all(list: &[Diagnostic]) -> Vec<&Diagnostic> {
        list.iter().collect()
    }

    #[test]
    fn takes_per_finding_the_first_allowed_fix_with_edits_and_skips_overlaps() {
        let text = "abcdefghij";
        let r = vec![
            finding(vec![fix_of(Applicability::Display, &[]), fix_of(Applicability::Safe, &[(0, 2, "X")])]),
            // overlaps the first: left for the next round
            finding(vec![fix_of(Applicability::Safe, &[(1, 3, "Y")])]),
            // touches the first's end: also left
            finding(vec![fix_of(Applicability::Safe, &[(2, 2, "Z")])]),
            // unsafe: only with --unsafe-fixes
            finding(vec![fix_of(Applicability::Unsafe, &[(5, 6, "U")])]),
            finding(vec![fix_of(Applicability::Safe, &[(8, 10, "W")])]),
        ];
        let groups = choose_edits(&all(&r), text, false);
        assert_eq!(groups.len(), 2);
        assert_eq!(apply_edits(text, &groups.concat()).unwrap(), "XcdefghW");
        let groups = choose_edits(&all(&r), text, true);
        assert_eq!(groups.len(), 3);
        assert_eq!(apply_edits(text, &groups.concat()).unwrap(), "XcdeUghW");
    }

    #[test]
    fn one_fix_removing_two_words_side_by_side_is_taken_as_one_edit() {
        let text = "a --x 1 --y 2 b";
        let r = vec![finding(vec![fix_of(Applicability::Safe, &[(7, 13, ""), (1, 7, "")])])];
        let groups = choose_edits(&all(&r), text, false);
        assert_eq!(groups, vec![vec![edit(1, 13, "")]]);
        assert_eq!(apply_edits(text, &groups.concat()).unwrap(), "a b");
    }

    #[test]
    fn an_edit_that_does_not_fit_the_text_is_not_taken() {
        let r = vec![finding(vec![fix_of(Applicability::Safe, &[(3, 99, "")])]), finding(vec![fix_of(Applicability::Safe, &[(1, 1, "×")])])];
        assert!(choose_edits(&all(&r), "×yz", false).is_empty());
    }

    #[test]
    fn a_fix_after_which_the_text_is_no_longer_readable_is_left_out() {
        // Two findings: one writes a `"` (say, inside a double-quoted YAML scalar), one a plain word.
        let check = |t: &str| {
            let mut findings = Vec::new();
            if t.starts_with('a') {
                findings.push(finding(vec![fix_of(Applicability::Safe, &[(0, 1, "\"")])]));
            }
            if t.ends_with('z') {
                findings.push(finding(vec![fix_of(Applicability::Safe, &[(t.len() - 1, t.len(), "Z")])]));
            }
            findings
        };
        let fixed = fix_all("abz", false, check, |r| all(r), |_, after| !after.contains('"'));
        assert_eq!((fixed.text.as_str(), fixed.applied), ("abZ", 1));
        assert_eq!(fixed.edits, vec![edit(2, 3, "Z")]);
    }

    #[test]
    fn stops_when_a_round_changes_nothing_and_after_ten_rounds() {
        // A fix that always offers to append: bounded.
        let grows = fix_all("x", false, |t| vec![finding(vec![fix_of(Applicability::Safe, &[(t.len(), t.len(), "x")])])], |r| all(r), |_, _| true);
        assert_eq!(grows.text, "x".repeat(11));
        assert_eq!((grows.applied, grows.rounds), (10, 10));
        // Each round's insertion touches the one before: one edit of the original.
        assert_eq!(grows.edits, vec![edit(1, 1, &"x".repeat(10))]);
        let same = fix_all("x", false, |_| vec![finding(vec![fix_of(Applicability::Safe, &[(0, 1, "x")])])], |r| all(r), |_, _| true);
        assert_eq!((same.text.as_str(), same.applied, same.rounds), ("x", 0, 0));
        assert!(same.edits.is_empty());
    }

    #[test]
    fn a_round_that_undoes_an_earlier_one_leaves_no_edit() {
        // One fix adds a flag, the next check's fix removes it again (ten rounds: back where it began).
        let check = |t: &str| match t {
            "run" => vec![finding(vec![fix_of(Applicability::Safe, &[(3, 3, " --x")])])],
            _ => vec![finding(vec![fix_of(Applicability::Safe, &[(3, t.len(), "")])])],
        };
        let fixed = fix_all("run", false, check, |r| all(r), |_, _| true);
        assert_eq!((fixed.text.as_str(), fixed.rounds), ("run", 10));
        assert!(fixed.edits.is_empty(), "{:?}", fixed.edits);
    }

    #[test]
    fn the_combined_edits_of_several_rounds_give_the_fixed_text_and_touch_only_what_changed() {
        // Round 1 renames `tp` and `dpp`; round 2 (a finding only the renamed text has) changes
        // the value after `--tp-size` and, inside round 1's own replacement, `-size` → `-sz`.
        let text = "run --tp 2 --dpp 3 # keep";
        let check = |t: &str| -> Vec<Diagnostic> {
            let mut out = Vec::new();
            if let Some(at) = t.find("--tp ") {
                out.push(finding(vec![fix_of(Applicability::Safe, &[(at, at + 4, "--tp-size")])]));
            }
            if let Some(at) = t.find("--dpp") {
                out.push(finding(vec![fix_of(Applicability::Safe, &[(at, at + 5, "--dp-size")])]));
            }
            if let Some(at) = t.find("--tp-size 2") {
                out.push(finding(vec![fix_of(Applicability::Safe, &[(at + 10, at + 11, "4")])]));
            }
            if let Some(at) = t.find("--dp-size") {
                out.push(finding(vec![fix_of(Applicability::Safe, &[(at + 4, at + 9, "-sz")])]));
            }
            out
        };
        let fixed = fix_all(text, false, check, |r| all(r), |_, _| true);
        assert_eq!(fixed.text, "run --tp-size 4 --dp-sz 3 # keep");
        assert_eq!(fixed.rounds, 2);
        assert_eq!(apply_edits(text, &fixed.edits).as_deref(), Some(fixed.text.as_str()));
        // `--tp` and `2` are apart in the original; the second fix of `--dpp` merged into the first.
        assert_eq!(fixed.edits, vec![edit(4, 8, "--tp-size"), edit(9, 10, "4"), edit(11, 16, "--dp-sz")]);
    }

    #[test]
    fn composing_random_rounds_always_gives_the_text_the_rounds_gave() {
        // A small deterministic generator: rounds of random apart edits over random texts.
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        for _ in 0..20_000 {
            let original: String = (0..next(12)).map(|_| (b'a' + next(4) as u8) as char).collect();
            let mut current = original.clone();
            let mut combined = Vec::new();
            for _ in 0..1 + next(4) {
                let mut edits = Vec::new();
                let mut at = 0;
                while at <= current.len() && next(3) > 0 {
                    let start = at + next(current.len() + 1 - at);
                    let end = start + next(current.len() + 1 - start).min(2);
                    let replacement: String = (0..next(3)).map(|_| (b'A' + next(3) as u8) as char).collect();
                    edits.push(edit(start, end, &replacement));
                    at = end + 1;
                }
                let Some(after) = apply_edits(&current, &edits) else { panic!("apart edits apply") };
                combined = compose(&current, combined, edits);
                current = after;
                assert_eq!(apply_edits(&original, &combined).as_deref(), Some(current.as_str()), "{original:?} → {current:?}: {combined:?}");
                assert!(combined.windows(2).all(|w| w[0].end < w[1].start), "apart and sorted: {combined:?}");
            }
        }
    }
}
