//! "Apply all safe fixes" (the CLI's `--fix`, the page's button) over every recorded command of
//! the default release: the combined edits the core gives, applied to the command as written,
//! give exactly the text the rounds of fixing gave; they are sorted and apart; no byte outside
//! them changes. Commands fixed over several rounds prove the composition of rounds.

use sglang_preflight::check::Report;
use sglang_preflight::diagnostic::{apply_edits, Diagnostic};
use sglang_preflight::fix_all::fix_all;
use sglang_preflight::{check, CheckOptions};

mod common;
use common::{default_release_fixtures as fixtures, options_for};

fn findings(r: &Report) -> Vec<&Diagnostic> {
    r.diagnostics.iter().chain(r.commands.iter().flat_map(|c| c.diagnostics.iter())).collect()
}

#[test]
fn the_combined_edits_of_every_recorded_command_give_the_fixed_text() {
    let mut fixed_commands = 0;
    let mut several_rounds = 0;
    // Fixes that undo each other round after round, until the round limit.
    let mut cycling = Vec::new();
    let mut problems = Vec::new();
    for f in fixtures() {
        let cmd = f.get("cmd").and_then(serde_json::Value::as_str).unwrap_or_default();
        let id = f.get("id").and_then(serde_json::Value::as_str).unwrap_or_default();
        let opts: CheckOptions = options_for(&f, sglang_preflight::schema::DEFAULT_VERSION);
        for unsafe_fixes in [false, true] {
            let fixed = fix_all(cmd, unsafe_fixes, |t| check(t, &opts), |r: &Report| -> Vec<&Diagnostic> { findings(r) }, |_, _| true);
            if fixed.rounds == 0 {
                if !fixed.edits.is_empty() || fixed.text != cmd {
                    problems.push(format!("{id}: no round, yet edits {:?}", fixed.edits));
                }
                continue;
            }
            fixed_commands += 1;
            if fixed.rounds > 1 {
                several_rounds += 1;
            }
            if fixed.rounds == sglang_preflight::fix_all::MAX_ROUNDS {
                cycling.push(format!("{id} (unsafe: {unsafe_fixes})"));
            }
            if apply_edits(cmd, &fixed.edits).as_deref() != Some(fixed.text.as_str()) {
                problems.push(format!("{id} (unsafe: {unsafe_fixes}): the edits do not give the fixed text: {:?}", fixed.edits));
            }
            if !fixed.edits.windows(2).all(|w| w.first().map(|a| a.end) < w.get(1).map(|b| b.start)) {
                problems.push(format!("{id}: edits not sorted and apart: {:?}", fixed.edits));
            }
            // An edit that writes what was there would be no change: none is given.
            for e in &fixed.edits {
                if cmd.get(e.start..e.end) == Some(e.replacement.as_str()) {
                    problems.push(format!("{id}: an edit that changes nothing: {e:?}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problems, the first: {:#?}", problems.len(), problems.iter().take(5).collect::<Vec<_>>());
    println!("{fixed_commands} fixes of recorded commands, {several_rounds} over several rounds; {} stopped by the round limit: {cycling:?}", cycling.len());
    assert!(fixed_commands > 100, "only {fixed_commands} recorded commands have fixes");
    assert!(several_rounds > 0, "no recorded command is fixed over several rounds: the composition goes unexercised");
}
