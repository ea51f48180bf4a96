// Styles shared by the page (document.adoptedStyleSheets) and the widget (its shadow root):
// colours for light and dark, highlights, verdict, diagnostic cards, fixes.
/** The light palette (custom properties), and the dark one: a host can pick either (the widget's `theme`). */
export const LIGHT = `
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
  --err: #b3261e; --err-bg: #ffebe9; --err-hl: rgba(255, 80, 60, 0.28);
  --warn: #8a5a00; --warn-bg: #fff8c5; --warn-hl: rgba(230, 170, 0, 0.32);
  --info: #0b5cad; --info-bg: #ddf4ff; --info-hl: rgba(40, 130, 230, 0.22);
  --ok: #1a7f37; --ok-bg: #dafbe1; --accent: #0969da;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
`;
export const DARK = `
  --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #161b22;
  --err: #ff8f86; --err-bg: #3c1618; --err-hl: rgba(248, 81, 73, 0.40);
  --warn: #e3b341; --warn-bg: #3a2d0b; --warn-hl: rgba(210, 153, 34, 0.40);
  --info: #79c0ff; --info-bg: #0c2d4b; --info-hl: rgba(56, 139, 253, 0.35);
  --ok: #56d364; --ok-bg: #0f2e18; --accent: #4493f8;
`;

export default `
:root, :host {${LIGHT}}
@media (prefers-color-scheme: dark) {
  :root, :host {${DARK}}
}
mark.hl { color: transparent; border-radius: 2px; }
/* The underline starts 1px below the mark (a 1px shadow in the background colour, --hl-gap, in
   between): flush with the mark it drew over the underscores of the text at 1x zoom, so that
   host_pool read as "host pool". */
mark.hl.error { background: var(--err-hl); box-shadow: 0 1px 0 var(--hl-gap, var(--bg)), 0 3px 0 var(--err); }
mark.hl.warning { background: var(--warn-hl); box-shadow: 0 1px 0 var(--hl-gap, var(--bg)), 0 3px 0 var(--warn); }
mark.hl.info { background: var(--info-hl); box-shadow: 0 1px 0 var(--hl-gap, var(--bg)), 0 3px 0 var(--info); }
mark.hl.point { border-left: 2px solid var(--err); margin: 0 -1px; background: none; box-shadow: none; }
mark.hl.point.warning { border-left-color: var(--warn); }
mark.hl.point.info { border-left-color: var(--info); }
.verdict { padding: 0.6em 0.9em; border-radius: 6px; font-weight: 600; border: 1px solid var(--line); background: var(--panel); color: var(--fg); }
.verdict.accepted { background: var(--ok-bg); color: var(--ok); border-color: var(--ok); }
/* Accepted by the checks that ran: not the all-clear green; what did not run is said under the line. */
.verdict.accepted.partial { background: var(--panel); color: var(--fg); border-color: var(--ok); border-style: dashed; }
.verdict .not-run { display: block; margin-top: 0.2em; font-weight: 400; font-size: 0.92em; }
.verdict .not-run-list { font-weight: 400; font-size: 0.88em; margin-top: 0.2em; }
.verdict .not-run-list ul { margin: 0.2em 0 0; padding-left: 1.3em; }
.verdict .not-run-list code { overflow-wrap: anywhere; }
.verdict.none { color: var(--muted); }
.verdict.failed { background: var(--warn-bg); color: var(--warn); border-color: var(--warn); font-weight: 600; }
.verdict.rejected { background: var(--err-bg); color: var(--err); border-color: var(--err); }
.card { border: 1px solid var(--line); border-left: 4px solid var(--muted); border-radius: 6px; padding: 0.6em 0.8em; margin: 0 0 0.8em; background: var(--bg); color: var(--fg); }
.card.error { border-left-color: var(--err); }
.card.warning { border-left-color: var(--warn); }
.card.info { border-left-color: var(--info); }
.card-head { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; font-size: 0.85em; color: var(--muted); }
.badge { font-weight: 700; text-transform: uppercase; font-size: 0.8em; padding: 0.1em 0.45em; border-radius: 4px; }
.badge.error { background: var(--err-bg); color: var(--err); }
.badge.warning { background: var(--warn-bg); color: var(--warn); }
.badge.info { background: var(--info-bg); color: var(--info); }
.card-head .code-link { margin-left: auto; color: var(--accent); }
.card-head code, .card code { font-family: var(--mono); }
.card button.where { font: inherit; color: var(--accent); background: none; border: none; padding: 0; cursor: pointer; text-decoration: underline; }
.card .message { margin: 0.5em 0; padding: 0.5em 0.6em; background: var(--panel); border-radius: 4px; white-space: pre-wrap; word-break: break-word; font-size: 0.92em; }
.card .explanation { margin: 0.4em 0; line-height: 1.45; white-space: pre-line; }
.fix { border-top: 1px dashed var(--line); padding-top: 0.5em; margin-top: 0.5em; }
.fix-head { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; }
.fix-title { font-weight: 600; }
.applic { font-size: 0.8em; color: var(--muted); }
.applic.unsafe { color: var(--warn); }
button { font: inherit; color: var(--fg); background: var(--panel); border: 1px solid var(--line); border-radius: 5px; padding: 0.25em 0.7em; cursor: pointer; }
button:hover { border-color: var(--accent); }
button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
button.apply { border-color: var(--accent); color: var(--accent); font-weight: 600; }
.before-after { display: grid; grid-template-columns: 1fr; gap: 0.3em; margin-top: 0.4em; }
.ba { display: flex; gap: 0.5em; align-items: baseline; min-width: 0; }
.ba-label { font-size: 0.75em; color: var(--muted); width: 3.5em; flex: none; }
.ba pre { margin: 0; padding: 0.3em 0.5em; background: var(--panel); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--mono); font-size: 0.85em; flex: 1; min-width: 0; }
/* A word moves to the next line whole; only one longer than a line breaks inside. */
.ba pre .w, .card .message .w { display: inline-block; max-width: 100%; }
.ba del { background: var(--err-hl); text-decoration: line-through; color: inherit; }
.ba ins { background: rgba(46, 160, 67, 0.30); text-decoration: none; color: inherit; }
/* Hidden characters (TXT004/TXT009). In the backdrop behind the textarea the character itself
   stays (the backdrop must lay out exactly as the textarea does) and is drawn out of the flow: a
   bar where it is and a label just above it; absolutely placed, the label is a block of its own,
   so no bidi control in the text reorders it. */
.hc { position: relative; }
.hc::before { content: ""; position: absolute; left: -1px; top: -0.1em; bottom: -0.1em; border-left: 2px solid var(--warn); }
.hc.error::before { border-left-color: var(--err); }
.hc[data-label]::after { content: attr(data-label); position: absolute; left: calc(var(--badge-dx, 0px) - 1px); bottom: calc(100% - 0.35em); font: 700 8.5px/1.25 var(--mono); letter-spacing: 0; padding: 0 2px; border-radius: 2px; white-space: nowrap; direction: ltr; unicode-bidi: isolate; background: var(--warn); color: var(--bg); opacity: 0.9; }
.hc.error[data-label]::after { background: var(--err); }
/* Read-only displays show the escaped form instead: the character is replaced by its label. */
.esc { display: inline-block; font: 700 0.78em/1.3 var(--mono); padding: 0 0.3em; margin: 0 0.1em; border-radius: 3px; border: 1px solid var(--warn); background: var(--warn-bg); color: var(--warn); white-space: nowrap; direction: ltr; unicode-bidi: isolate; vertical-align: 0.05em; }
.esc.bidi, .esc.error { border-color: var(--err); background: var(--err-bg); color: var(--err); }
.verdict.accepted.caution { background: var(--warn-bg); color: var(--warn); border-color: var(--warn); }
.also-runs { border: 2px solid var(--warn); border-radius: 6px; background: var(--warn-bg); color: var(--fg); padding: 0.5em 0.8em; margin: 0 0 0.8em; }
.also-runs .also-head { margin: 0 0 0.35em; }
.also-runs .also-head strong { color: var(--warn); }
.also-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.3em; }
.also-item { display: flex; gap: 0.6em; align-items: baseline; width: 100%; text-align: left; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 0.25em 0.5em; min-width: 0; }
button.also-item { cursor: pointer; }
.also-item .ln { flex: none; font-size: 0.8em; color: var(--muted); white-space: nowrap; }
.also-cmd { font-family: var(--mono); font-size: 0.9em; white-space: pre-wrap; overflow-wrap: anywhere; min-width: 0; direction: ltr; unicode-bidi: bidi-override; }
.also-runs.compact { padding: 0.35em 0.6em; font-size: 0.92em; }
.as-runs-lines { list-style: none; margin: 0; padding: 0.4em 0.6em; background: var(--panel); border-radius: 4px; font: 12.5px/1.6 var(--mono); max-height: 16em; overflow: auto; }
.as-runs-lines .line { display: flex; gap: 0.8em; align-items: baseline; }
.as-runs-lines .ln { flex: none; min-width: 2.5em; text-align: right; color: var(--muted); user-select: none; }
.as-runs-lines code { white-space: pre-wrap; overflow-wrap: anywhere; min-width: 0; direction: ltr; unicode-bidi: bidi-override; }
.as-runs-lines .gap { color: var(--muted); font-style: italic; padding-left: 3.3em; }
.muted { color: var(--muted); }
/* Warnings and notes start folded: a summary line (head and the message on one line) opens the card. */
.card details.fold > summary { list-style: none; cursor: pointer; }
.card details.fold > summary::-webkit-details-marker { display: none; }
.card .fold-mark { display: inline-block; width: 0.8em; color: var(--muted); transition: transform 0.1s; }
.card details.fold[open] .fold-mark { transform: rotate(90deg); }
.card .card-line { display: block; margin-top: 0.3em; font-family: var(--mono); font-size: 0.88em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.card details.fold[open] .card-line { display: none; }
.card-head .count { font-weight: 700; font-size: 0.85em; padding: 0.05em 0.4em; border-radius: 4px; border: 1px solid var(--line); color: var(--fg); }
`;
