// The page: paste area with highlights, live re-check in a worker, verdict, cards with fixes,
// YAML pane, builder, hardware picker, permalinks. All user data is rendered as text.
import { PreflightClient, CheckAbandoned, CheckerCrashed } from './client.js';
import cardsCss from './cards-css.js';
import { el, renderHighlights, renderHighlightsSliced, renderCardPages, diagCard, cardKey, allDiagnostics, cardItems, alsoRunsPanel, alsoRunsCount, showVerdict, asRunsView, hasHiddenChars, isBidiControl, spreadBadges, migrationView, resolvedView } from './render.js';
import { Builder } from './builder.js';
import { CommandEditor, fixDiffView } from './editor.js';
import { ExplainSection } from './explain.js';
import { DEFAULT_COMMAND, readHash, startOfflineCache } from './boot.js';

const $ = (id) => document.getElementById(id);
const sheet = new CSSStyleSheet();
sheet.replaceSync(cardsCss);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

const CARD_PAGE = 40;
const cmd = $('command');
const backdrop = $('backdrop');
const yaml = $('yaml');
const modelConfig = $('model-config');
const verdict = $('verdict');
const notice = $('notice');
const cards = $('cards');
const gpuSel = $('gpu');
const gpusIn = $('gpus');
const versionSel = $('version');
const releaseNote = $('release-note');
// The card of each finding shown (a finding on a page of cards not drawn yet has none).
let cardOf = new Map();
let currentCards = [];
// The cards drawn for the report shown, by what they draw (`cardKey`), and the finding (and
// text) each card's buttons act on.
let cardsByKey = new Map();
const findingOf = new WeakMap();
const editor = new CommandEditor({ textarea: cmd, backdrop, box: cmd.closest('.paste'), onCaret: markCards });

/** The caret is in these findings' spans: their cards are marked (and none other). */
function markCards(found) {
  for (const c of currentCards) c.classList.remove('current');
  currentCards = found.map((d) => cardOf.get(d)).filter(Boolean);
  for (const c of currentCards) c.classList.add('current');
}

// boot.js started the worker before this module graph had loaded; take it over (once).
const early = globalThis.__preflightEarlyWorker || null;
delete globalThis.__preflightEarlyWorker;
const client = new PreflightClient({ budgetMs: 2000, adopt: early, ruleTexts: false });
let meta = null;
let presets = [];
let inflight = false;
let dirty = false;
let renders = 0;
let builder = null;
// The report shown and the text it was made for (the copy warning reads them).
let shown = { report: null, text: null };
// Whether the SGLang release was chosen (the picker, or a link's `v`). Until it is, a release the
// text names (`lmsysorg/sglang:v0.5.20`, `sglang==0.5.19`) is the one checked against, and the
// picker shows the release each report was checked against.
let versionPicked = false;

function showNotice(text) {
  notice.textContent = text;
  notice.hidden = !text;
}

function options() {
  const o = versionPicked
    ? { sglangVersion: versionSel.value || undefined, gpu: gpuSel.value || 'h100' }
    : { sglangVersion: meta ? meta.version.defaultSglang : undefined, releaseFromText: true, gpu: gpuSel.value || 'h100' };
  const n = gpusIn.value.trim();
  if (/^\d{1,4}$/.test(n)) o.gpus = Number(n);
  if (yaml.value.trim()) o.configYaml = yaml.value;
  if (modelConfig.value.trim()) o.modelConfig = modelConfig.value;
  return o;
}

// ---- the URL hash holds the whole state: cmd, yaml, gpu, gpus, v (boot.js readHash) ----

// Secrets stay out of links: the hash (the permalink, written as you type) and every copied
// link carry the command with the values of tokens, keys and passwords replaced by a
// placeholder (the core's `redactForLink`); the editor keeps the real text. The hash is written
// only once the redacted text is known, never the raw text in between.
let hashTimer = 0;
let hashSeq = 0;
/** The last link written: the editor text it was made from, and the link. */
let linked = { text: null, href: null, redacted: 0 };
function writeHashSoon() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(writeHash, 250);
}

/** The link for the current state (secrets replaced), as the hash to write. */
async function linkHash() {
  const text = cmd.value;
  const r = await client.redactForLink(text);
  const p = new URLSearchParams();
  p.set('cmd', r.text);
  if (yaml.value) p.set('yaml', yaml.value);
  p.set('gpu', gpuSel.value);
  if (gpusIn.value.trim()) p.set('gpus', gpusIn.value.trim());
  // Only a chosen release: a link to a text that names its release checks against that one.
  if (versionPicked) p.set('v', versionSel.value);
  return { text, hash: '#' + p.toString(), redacted: r.redacted.length };
}

/** Write the permalink for the current state; resolves to the link, or null if superseded. */
async function writeHash() {
  clearTimeout(hashTimer);
  const seq = ++hashSeq;
  let h;
  try {
    h = await linkHash();
  } catch {
    return null; // the checker is not there (yet): the next edit writes it
  }
  if (seq !== hashSeq || h.text !== cmd.value) return null;
  if (location.hash !== h.hash) history.replaceState(null, '', h.hash);
  linked = { text: h.text, href: location.href, redacted: h.redacted };
  showLinkNote(h.redacted);
  // How many times the permalink was written (like `renders`: a reader can tell it is up).
  document.body.dataset.links = String(Number(document.body.dataset.links || 0) + 1);
  return location.href;
}

// "1 secret replaced by a placeholder in links", next to Copy link (made here: the page's HTML
// has no place for it).
let linkNote = null;
function showLinkNote(n) {
  if (!linkNote) {
    if (!n) return;
    linkNote = el('p', 'link-note muted');
    linkNote.id = 'link-note';
    linkNote.setAttribute('role', 'status');
    $('share').closest('.editor-head').after(linkNote);
  }
  linkNote.textContent = n ? `${n} secret${n === 1 ? '' : 's'} replaced by a placeholder in links (the command box keeps ${n === 1 ? 'it' : 'them'}).` : '';
  linkNote.hidden = !n;
}

function applyHash() {
  const h = readHash();
  const problems = [];
  cmd.value = h.cmd !== null ? h.cmd : cmd.value || DEFAULT_COMMAND;
  if (h.yaml !== null) {
    yaml.value = h.yaml;
    if (h.yaml) $('yaml-box').open = true;
  }
  if (h.gpu !== null) {
    if (presets.some((p) => p.preset === h.gpu)) gpuSel.value = h.gpu;
    else problems.push('GPU preset');
  }
  if (h.gpus !== null) {
    if (/^\d{1,4}$/.test(h.gpus)) gpusIn.value = h.gpus;
    else problems.push('GPU count');
  }
  versionPicked = false;
  if (h.v !== null) {
    if (knownReleases().includes(h.v)) {
      versionSel.value = h.v;
      versionPicked = true;
    } else problems.push('SGLang version');
  }
  if (!versionPicked) versionSel.value = meta.version.defaultSglang;
  updateGpusPlaceholder();
  // Shown as text; the rejected values themselves are not echoed.
  showNotice(problems.length ? `The link's ${problems.join(', ')} is not one this page knows; using the default.` : '');
}

/** Every release the picker offers, newest first: the carried one and those fetched on demand. */
function knownReleases() {
  return meta.version.known || meta.version.sglang;
}

function updateGpusPlaceholder() {
  const p = presets.find((x) => x.preset === gpuSel.value);
  gpusIn.placeholder = p ? String(p.gpu_count) : '';
}

// ---- checking ----
let editSeq = 0;
let abandonedSeq = -1;
// A text that names a model is first checked without waiting for the model catalog (~430 KB,
// which the worker may still be downloading): that report is shown at once, saying the checks
// that read the model's config are still to come, and the next check waits for the catalog.
let waitForModels = false;
function schedule() {
  editSeq++;
  dirty = true;
  if (!inflight) runCheck();
}

async function runCheck() {
  dirty = false;
  inflight = true;
  const text = cmd.value;
  const opts = options();
  const key = JSON.stringify(opts);
  const seq = editSeq;
  try {
    // "What SGLang will run with" is asked for when its section is opened (resolvedView).
    const modelsLater = !waitForModels;
    waitForModels = false;
    const report = await client.check(text, { ...opts, resolvedValues: false }, { modelsLater });
    if (text === cmd.value && key === JSON.stringify(options())) show(report, text, opts);
    if (report.models_loading) {
      waitForModels = true;
      dirty = true;
    }
    // The "abandoned"/"crashed" notice stays until a later edit has been checked.
    if (notice.dataset.kind === 'checker' && seq > abandonedSeq) {
      notice.dataset.kind = '';
      showNotice('');
    }
  } catch (e) {
    // Whatever went wrong, the previous result does not describe this text: clear it, and say
    // in the verdict what happened.
    let msg;
    if (e instanceof CheckAbandoned) msg = e.message;
    else if (e instanceof CheckerCrashed) msg = `The checker crashed on this input (a bug in sglang-preflight) and was restarted: ${e.message}`;
    else msg = `Could not check: ${e.message}`;
    showNotice(msg);
    notice.dataset.kind = 'checker';
    abandonedSeq = editSeq;
    showFailure(text, e instanceof CheckAbandoned ? 'it took too long' : e instanceof CheckerCrashed ? 'the checker crashed' : 'an error');
  } finally {
    inflight = false;
  }
  if (dirty) runCheck();
}

// Each render (a report or a failure) supersedes the ones before it, even while they are still
// drawing their highlights.
let showSeq = 0;

function showFailure(text, why) {
  const seq = ++showSeq;
  verdict.textContent = `No verdict: the check did not finish (${why}). Edit the command to check it again.`;
  verdict.className = 'verdict pending failed';
  releaseNote.textContent = '';
  releaseNote.hidden = true;
  cards.replaceChildren();
  cardsByKey = new Map();
  shown = { report: null, text: null };
  $('also-runs').replaceChildren();
  showAsRuns(text);
  $('notrun').textContent = '';
  $('resolved').replaceChildren();
  $('hl-note').hidden = true;
  $('fix-all').hidden = true;
  cardOf = new Map();
  renderHighlights(backdrop, text, null);
  editor.clear();
  syncScroll();
  return seq;
}

// The worker fetches the model catalog when a command first names a model, often before the
// service worker controls the page (the first visit): the service worker stores only what is
// fetched through it, so the page asks for the catalog again once it is controlled. The browser's
// HTTP cache answers; the service worker keeps it for offline use.
let modelsUsed = false;
let catalogKept = false;
function keepCatalogOffline() {
  if (catalogKept || !modelsUsed || !navigator.serviceWorker?.controller) return;
  catalogKept = true;
  fetch(new URL('./models/catalog.json', import.meta.url)).catch(() => (catalogKept = false));
}
navigator.serviceWorker?.addEventListener('controllerchange', keepCatalogOffline);

/** Which model each command names, and how it is known (the core's summary line). */
function showModels(report) {
  const commands = report.commands || [];
  const lines = [];
  commands.forEach((c, i) => {
    for (const m of [c.model, c.draft_model]) {
      if (!m) continue;
      const li = el('li', null, `${commands.length > 1 ? `Command ${i + 1}: ` : ''}${m.flag === 'speculative_draft_model_path' ? 'draft model' : 'model'}: ${m.summary}`);
      if (m.source) li.title = `Config source: ${m.source}`;
      // Not known (nor given): offer the pane that takes its config.
      if (!m.how && m.flag === 'model_path' && !modelConfig.value.trim()) {
        const give = el('button', 'link-button', 'Paste its config.json');
        give.type = 'button';
        give.addEventListener('click', () => {
          $('model-box').open = true;
          modelConfig.focus();
        });
        li.append(' ', give);
      }
      lines.push(li);
    }
  });
  if (report.models_loading) lines.push(el('li', 'loading', "Loading the model catalog: the checks that read the model's config run once it is here."));
  $('models').replaceChildren(...lines);
  if (commands.some((c) => c.model && c.model.how)) {
    modelsUsed = true;
    keepCatalogOffline();
  }
}

/** The pasted config.json: can the checker read it, and which architecture does it name. */
async function showModelConfigStatus() {
  const status = $('model-config-status');
  const text = modelConfig.value;
  if (!text.trim()) {
    status.textContent = '';
    return;
  }
  try {
    const s = await client.readModelConfig(text);
    if (text !== modelConfig.value) return;
    if (!s.ok) status.textContent = `Not used: ${s.error}.`;
    else {
      const wrong = (s.wrong_types || []).map((w) => `${w.key} (expected ${w.expected})`);
      status.textContent = `Used for the checks: ${s.architecture || 'a config without architectures'}.${wrong.length ? ` Read as absent: ${wrong.join(', ')}.` : ''}`;
    }
  } catch (e) {
    status.textContent = `Not read: ${e && e.message ? e.message : e}`;
  }
}

function show(report, text, opts) {
  const seq = ++showSeq;
  shown = { report, text };
  showRelease(report, text);
  // SGLang would start, but what is displayed is not what runs (a bidi control), or the paste runs
  // more than the launch: not the all-clear green.
  const caution = report.summary.outcome === 'accepted' && (hiddenFindings(report).bidi > 0 || (report.also_runs || []).length > 0);
  const partial = showVerdict(verdict, report, { caution, suffix: report.models_loading ? ' (so far: the model catalog is loading)' : '' });
  const also = alsoRunsPanel(report, { onLocate: locate });
  $('also-runs').replaceChildren(...(also ? [also] : []));
  showAsRuns(text);
  // Per command: errors first (open), then warnings and notes (folded to a line each).
  const items = cardItems(report);
  cardOf = new Map();
  // A card kept for the new report is marked again only if the caret is still in its finding.
  markCards([]);
  showFixAll(report);
  if (fixedAll) showFixDiff();
  if (items.length === 0) {
    cards.replaceChildren(el('p', 'empty', partial ? 'No findings from the checks that ran (the verdict says what did not run).' : 'No findings: SGLang would start with these arguments.'));
    cardsByKey = new Map();
  } else {
    // Many findings (e.g. a flag repeated thousands of times): render a page of cards now and
    // each next page on request, so a keystroke never waits for thousands of cards.
    // A finding drawn the same as one of the last report's keeps that card (typing before 40
    // warnings redraws none of them); its buttons act on the finding it shows now.
    const kept = cardsByKey;
    cardsByKey = new Map();
    const card = ({ d, count }) => {
      const finding = { d, text };
      // A fix of the card's first finding is the same fix of the finding it shows now.
      const onApply = (fix) => applyFix(finding.d.fixes[d.fixes.indexOf(fix)], finding.text);
      const opts = { text, count, collapsed: d.severity !== 'error', onApply, onLocate: () => locate(finding.d) };
      const key = cardKey(d, opts);
      let c = kept.get(key);
      if (c) {
        kept.delete(key);
        Object.assign(findingOf.get(c), finding);
      } else {
        c = diagCard(d, opts);
        findingOf.set(c, finding);
      }
      cardsByKey.set(key, c);
      cardOf.set(d, c);
      return c;
    };
    renderCardPages(cards, items, card, { pageSize: CARD_PAGE });
  }
  // What SGLang will run with, per accepted command (folded).
  const withValues = (i) => client.check(text, { ...opts, resolvedValues: true }).then((r) => r.commands[i]);
  const resolved = (report.commands || []).map((c, i) => resolvedView(c, { onApply: (fix) => applyFix(fix, text), load: () => withValues(i) })).filter(Boolean);
  $('resolved').replaceChildren(...resolved);
  explainSection.refresh();
  showModels(report);
  // A partial accept says it in its banner; a rejection's not-run note stays below.
  $('notrun').textContent = partial ? '' : report.summary.not_run || '';
  $('yaml-hint').hidden = !yaml.value.trim() || report.config_paths.length > 0;
  if ($('upgrade').open) showUpgrade();
  if (builder && $('builder').open) {
    if (builder.version !== versionSel.value) showBuilderRelease(versionSel.value);
    else syncBuilder(text);
  }
  // The highlights last: many of them are drawn in slices that let typing go on in between.
  // The gutter markers go into the highlights before they are in the page (one insertion, not one per marker).
  renderHighlightsSliced(backdrop, text, report, { current: () => seq === showSeq, beforeInsert: (frag) => editor.decorate(report, text, frag) }).then((done) => {
    if (!done) return;
    const note = $('hl-note');
    note.textContent = done.unmarked ? `The first ${done.total - done.unmarked} of ${done.total} highlights are drawn in the command; the findings list has all of them.` : '';
    note.hidden = !done.unmarked;
    spreadBadges(backdrop);
    syncScrollSoon();
    renders++;
    // How many reports the page has shown: lets a reader of the page (the browser tests, too)
    // tell when the report for the current text is up; `pending` while the one shown waits for
    // the model catalog (another report follows).
    if (report.models_loading) document.body.dataset.pending = 'models';
    else {
      delete document.body.dataset.pending;
      // The page's first complete report is up: now its files may be cached for offline use.
      startOfflineCache();
    }
    document.body.dataset.renders = String(renders);
  });
}

// "Moving to another SGLang release?": the notes for the text as it is, from one release to
// another; redrawn after each check while open. From: the release checked against; to: the newest.
let upgradeSeq = 0;
async function showUpgrade() {
  const seq = ++upgradeSeq;
  const body = $('upgrade-body');
  const from = $('upgrade-from').value;
  const to = $('upgrade-to').value;
  const text = cmd.value;
  if (from === to) {
    body.replaceChildren(el('p', 'muted', 'Choose two different releases.'));
    return;
  }
  try {
    const { sglangVersion, releaseFromText, ...opts } = options();
    const up = await client.upgrade(text, from, to, opts);
    if (seq !== upgradeSeq) return;
    body.replaceChildren(migrationView(up, { text, onApply: (fix) => applyFix(fix, text), onLocate: locate }));
    body.dataset.shown = `${from}>${to}`;
  } catch (e) {
    if (seq === upgradeSeq) body.replaceChildren(el('p', 'muted', `Could not compare the releases: ${e.message}`));
  }
}

/** Under the verdict: which release was checked against when the text chose it (the core's P0004
 * note says where), and the picker showing it. */
function showRelease(report, text) {
  if (!versionPicked && report.sglang_version && [...versionSel.options].some((o) => o.value === report.sglang_version)) versionSel.value = report.sglang_version;
  const named = allDiagnostics(report).find(({ d }) => d.code === 'P0004');
  const where = named ? text.slice(named.d.span16.start, named.d.span16.end) : '';
  releaseNote.textContent = named ? `Checked against SGLang ${report.sglang_version}, named in the text (${where}). Choose a release to check against another.` : '';
  releaseNote.hidden = !named;
}

// Edits of the text (fixes, the builder) run one after another, each on the text as it is then.
let editing = Promise.resolve();
function editText(makeEdit) {
  editing = editing.then(async () => {
    try {
      const edited = await makeEdit(cmd.value);
      if (!edited) return null;
      replaceText(edited.text);
      return edited;
    } catch (e) {
      showNotice(`Could not edit the command: ${e.message}`);
      return null;
    }
  });
  return editing;
}

// Put `next` in the textarea as one edit of the span that differs, through the browser's own
// editing (execCommand), so Ctrl+Z undoes exactly that edit. Assigning `cmd.value` would leave
// the textarea's undo history describing the old text, and Ctrl+Z then garbles the command.
function replaceText(next) {
  const prev = cmd.value;
  if (prev === next) return;
  const max = Math.min(prev.length, next.length);
  let a = 0;
  while (a < max && prev.charCodeAt(a) === next.charCodeAt(a)) a++;
  let b = 0;
  while (b < max - a && prev.charCodeAt(prev.length - 1 - b) === next.charCodeAt(next.length - 1 - b)) b++;
  // Never cut a surrogate pair in two.
  if (a > 0 && /[\uD800-\uDBFF]/.test(prev[a - 1])) a--;
  if (b > 0 && /[\uDC00-\uDFFF]/.test(prev[prev.length - b])) b--;
  const active = document.activeElement;
  const scrollTop = cmd.scrollTop;
  let ok = false;
  try {
    cmd.focus({ preventScroll: true });
    cmd.setSelectionRange(a, prev.length - b);
    const ins = next.slice(a, next.length - b);
    // Fires `input`, which schedules the check and the permalink.
    ok = ins ? document.execCommand('insertText', false, ins) : document.execCommand('delete');
  } catch {
    ok = false;
  }
  if (!ok || cmd.value !== next) {
    cmd.value = next;
    schedule();
    writeHashSoon();
  }
  cmd.scrollTop = scrollTop;
  // A builder control keeps the focus (and its caret) while its flag is edited.
  if (active && active !== cmd && active !== document.body && typeof active.focus === 'function') active.focus({ preventScroll: true });
}

async function applyFix(fix, reportText) {
  const edited = await editText((text) => {
    // The fix was made for the text of the report shown; a later edit may have moved things.
    if (text !== reportText) throw new Error('the command changed since this fix was found; wait for the new check');
    return client.applyEdits(text, fix.edits);
  });
  if (edited) {
    cmd.focus();
    cmd.setSelectionRange(edited.selection16.start, edited.selection16.end);
  }
}

/** How many TXT009 (bidi) and TXT004 (invisible) findings a report has. */
function hiddenFindings(report) {
  let bidi = 0;
  let invisible = 0;
  for (const { d } of allDiagnostics(report)) {
    if (d.code === 'TXT009') bidi++;
    else if (d.code === 'TXT004') invisible++;
  }
  return { bidi, invisible };
}

// The "as it runs" view under the command: the lines holding hidden characters, spelled out.
function showAsRuns(text) {
  const view = asRunsView(text);
  $('as-runs-body').replaceChildren(...(view ? [view] : []));
  $('as-runs').hidden = !view;
}

function locate(d) {
  cmd.focus();
  cmd.setSelectionRange(d.span16.start, d.span16.end);
}

// ---- undo, redo, apply all safe fixes ----
/** How many findings of `report` have a safe fix with edits (what one round of fix-all takes at most). */
function safeFixable(report) {
  return allDiagnostics(report).filter(({ d }) => (d.fixes || []).some((f) => f.applicability === 'safe' && f.edits.length)).length;
}

function showFixAll(report) {
  const n = safeFixable(report);
  const b = $('fix-all');
  b.hidden = n === 0;
  b.textContent = `Apply all safe fixes (${n})`;
}

// The diff "Apply all safe fixes" shows: the text before and the text it made. It stays while the
// command is that text, and goes when it changes (an undo brings the text before back).
let fixedAll = null;
async function applyAllSafeFixes() {
  const reportText = shown.text;
  let result = null;
  const edited = await editText(async (text) => {
    if (text !== reportText) throw new Error('the command changed since the last check; wait for the new check');
    // The options of the check the report shown came from.
    result = await client.fixAll(text, options());
    return result.text === text ? null : { text: result.text };
  });
  if (!edited || !result) {
    if (result) showNotice('The safe fixes change nothing here.');
    return;
  }
  fixedAll = { before: reportText, after: result.text, result };
  showFixDiff();
  if (result.selection16) {
    cmd.focus();
    cmd.setSelectionRange(result.selection16.start, result.selection16.end);
  }
}

function showFixDiff() {
  const box = $('fix-diff');
  if (!fixedAll || cmd.value !== fixedAll.after) {
    fixedAll = null;
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const { result, before } = fixedAll;
  const head = el('div', 'fix-diff-head');
  head.append(el('strong', null, `Applied ${result.applied} safe fix${result.applied === 1 ? '' : 'es'}`), ` (${result.edits.length} change${result.edits.length === 1 ? '' : 's'}; the rest of the text is as you wrote it). `);
  const undo = el('button', null, 'Undo them');
  undo.type = 'button';
  undo.addEventListener('click', () => undoRedo('undo'));
  const close = el('button', null, 'Close');
  close.type = 'button';
  close.addEventListener('click', () => {
    fixedAll = null;
    showFixDiff();
  });
  head.append(undo, ' ', close);
  box.replaceChildren(head, fixDiffView(before, result.edits));
  box.hidden = false;
}

/** Undo or redo the last edit of the command (the browser's own history, as Ctrl+Z and Ctrl+Y). */
function undoRedo(what) {
  cmd.focus({ preventScroll: true });
  if (!document.execCommand(what)) showNotice(`Nothing to ${what}.`);
}

function syncScroll() {
  backdrop.scrollTop = cmd.scrollTop;
  backdrop.scrollLeft = cmd.scrollLeft;
}

// After a report, in the next frame: reading the scroll position now would lay out the new
// cards and highlights at once, and the frame lays them out anyway.
let scrollFrame = 0;
function syncScrollSoon() {
  if (scrollFrame) return;
  scrollFrame = requestAnimationFrame(() => {
    scrollFrame = 0;
    syncScroll();
  });
}

// ---- copy ----
// Copying a command (or a link to it) that holds hidden characters or runs other commands passes
// them on: the copy waits for "Copy anyway" under a visible warning that says what is in it.
let pendingCopy = null;

/** What a copy of the current text would carry that the reader may not see, or '' if nothing. */
function copyRisks(text) {
  const parts = [];
  let bidi = 0;
  let hidden = 0;
  for (const ch of text) {
    if (!hasHiddenChars(ch)) continue;
    if (isBidiControl(ch)) bidi++;
    else hidden++;
  }
  if (bidi) parts.push(`${bidi} bidirectional control character${bidi === 1 ? '' : 's'} (what is displayed is not what runs)`);
  if (hidden) parts.push(`${hidden} invisible or blank-looking character${hidden === 1 ? '' : 's'}`);
  const report = shown.text === text && shown.report ? shown.report : null;
  if (report && (report.also_runs || []).length) parts.push(`${alsoRunsCount(report)} (listed above the findings)`);
  return parts.join('; ');
}

function copyWithWarning(getText, what) {
  const risks = copyRisks(cmd.value);
  if (!risks) {
    hideCopyWarning();
    return copyText(getText, what);
  }
  pendingCopy = { getText, what };
  $('copy-warn-text').textContent = `Careful: this ${what === 'Link' ? 'link carries a command that holds' : 'command holds'} ${risks}. Whoever runs it gets all of that. Copy anyway?`;
  $('copy-anyway').textContent = `Copy ${what.toLowerCase()} anyway`;
  $('copy-warn').hidden = false;
  $('copy-cancel').focus();
}

function hideCopyWarning() {
  pendingCopy = null;
  $('copy-warn').hidden = true;
}

async function copyText(getText, what) {
  let text;
  try {
    text = await getText();
  } catch (e) {
    showNotice(`Could not copy the ${what.toLowerCase()}: ${e.message}`);
    return;
  }
  try {
    await navigator.clipboard.writeText(text);
    showNotice(`${what} copied.`);
  } catch {
    const t = el('textarea');
    t.value = text;
    document.body.append(t);
    t.select();
    const ok = document.execCommand('copy');
    t.remove();
    showNotice(ok ? `${what} copied.` : `Could not copy the ${what.toLowerCase()}; select it and copy by hand.`);
  }
  notice.dataset.kind = 'copy';
  setTimeout(() => {
    if (notice.dataset.kind === 'copy') showNotice('');
  }, 2500);
}

// ---- explain each flag ----
// Folded under "What SGLang will run with"; asked of the core only while open.
let explainSeq = 0;
const explainSection = new ExplainSection(async (section) => {
  const seq = ++explainSeq;
  const text = cmd.value;
  try {
    const e = await client.explain(text, options());
    if (seq === explainSeq && text === cmd.value) section.show(e, text, { onLocate: locate });
  } catch (err) {
    if (seq === explainSeq) section.fail(`Could not explain the command: ${err.message}`);
  }
});
$('resolved').after(explainSection.box);

// ---- builder ----
// The builder shows the flags of the first command and edits that command's text in place.
let builderSync = 0;
async function syncBuilder(text) {
  const seq = ++builderSync;
  try {
    const flags = await client.commandFlags(text, versionSel.value, 0);
    if (seq === builderSync && text === cmd.value && builder) builder.showFlags(flags.values);
  } catch {
    // A later check syncs again; the controls keep what they show.
  }
}

async function openBuilder() {
  if (builder) {
    if (builder.version !== versionSel.value) return showBuilderRelease(versionSel.value);
    syncBuilder(cmd.value);
    return;
  }
  try {
    const schema = await client.schema(versionSel.value);
    builder = new Builder({
      body: $('builder-body'),
      search: $('flag-search'),
      onlySet: $('only-set'),
      reset: $('builder-reset'),
      schema,
      onChange(option, value) {
        editText((text) => client.setFlag(text, versionSel.value, option, value));
      },
      onReset() {
        editText((text) => client.clearFlags(text));
      },
      searchFlags: (query) => client.searchFlags(builder ? builder.version : versionSel.value, query),
      // The choices judged for the command as it is now, on the release and hardware checked against.
      choiceVerdicts: (option) => client.choiceVerdicts(cmd.value, { ...options(), sglangVersion: builder.version, releaseFromText: false }, option),
    });
    syncBuilder(cmd.value);
  } catch (e) {
    $('builder-body').replaceChildren(el('p', 'notice', `Could not load the flag schema: ${e.message}`));
  }
}

// The builder shows the flags of the release checked against: another release, other flags.
let builderRelease = null;
async function showBuilderRelease(version) {
  if (builderRelease === version) return;
  builderRelease = version;
  try {
    const schema = await client.schema(version);
    if (builderRelease !== version || !builder) return;
    builder.setSchema(schema);
    syncBuilder(cmd.value);
  } catch (e) {
    $('builder-body').replaceChildren(el('p', 'notice', `Could not load the flag schema: ${e.message}`));
  } finally {
    if (builderRelease === version) builderRelease = null;
  }
}

// ---- start ----
async function main() {
  cmd.addEventListener('input', () => {
    // A warning about the text before this edit does not describe this one: copy again to see it.
    if (pendingCopy) hideCopyWarning();
    schedule();
    writeHashSoon();
  });
  cmd.addEventListener('scroll', syncScroll);
  cmd.addEventListener('input', () => {
    if (fixedAll) showFixDiff();
  });
  $('undo').addEventListener('click', () => undoRedo('undo'));
  $('redo').addEventListener('click', () => undoRedo('redo'));
  $('fix-all').addEventListener('click', applyAllSafeFixes);
  new ResizeObserver(() => {
    // A new width wraps the text anew: the labels of hidden characters are placed again.
    spreadBadges(backdrop);
    syncScroll();
  }).observe(cmd);
  yaml.addEventListener('input', () => {
    schedule();
    writeHashSoon();
  });
  modelConfig.addEventListener('input', () => {
    schedule();
    showModelConfigStatus();
  });
  $('model-config-file').addEventListener('change', async (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    // Larger than any real config.json: not read (the core refuses past 16 MB too).
    if (file.size > 16 << 20) {
      $('model-config-status').textContent = `Not read: ${file.name} is ${file.size} bytes, more than a config.json can reasonably be.`;
      return;
    }
    modelConfig.value = await file.text();
    schedule();
    showModelConfigStatus();
  });
  versionSel.addEventListener('change', () => {
    versionPicked = true;
  });
  for (const c of [gpuSel, gpusIn, versionSel]) {
    c.addEventListener(c === gpusIn ? 'input' : 'change', () => {
      updateGpusPlaceholder();
      schedule();
      writeHash();
    });
  }
  $('copy').addEventListener('click', () => copyWithWarning(() => cmd.value, 'Command'));
  $('share').addEventListener('click', () =>
    copyWithWarning(async () => {
      // The link with its secrets replaced: the one written for this text, or a new one.
      if (linked.text === cmd.value && linked.href === location.href) return linked.href;
      const href = await writeHash();
      if (href === null) throw new Error('the command changed while the link was made');
      return href;
    }, 'Link'),
  );
  $('copy-anyway').addEventListener('click', () => {
    const p = pendingCopy;
    hideCopyWarning();
    if (p) copyText(p.getText, p.what);
  });
  $('copy-cancel').addEventListener('click', () => {
    hideCopyWarning();
    $('copy').focus();
  });
  $('upgrade').addEventListener('toggle', () => {
    if (!$('upgrade').open) return;
    // From the release the command is checked against, to the newest (or the oldest, from the newest).
    const checked = (shown.report && shown.report.sglang_version) || versionSel.value;
    $('upgrade-from').value = checked;
    const releases = knownReleases();
    $('upgrade-to').value = checked === releases[0] ? releases[releases.length - 1] : releases[0];
    showUpgrade();
  });
  for (const id of ['upgrade-from', 'upgrade-to']) $(id).addEventListener('change', showUpgrade);
  $('builder').addEventListener('toggle', () => {
    if ($('builder').open) openBuilder();
  });
  window.addEventListener('hashchange', () => {
    applyHash();
    schedule();
  });
  client.onrestart = () => {};

  // Show the command at once (before the checker has loaded).
  const h = readHash();
  cmd.value = h.cmd !== null ? h.cmd : DEFAULT_COMMAND;
  renderHighlights(backdrop, cmd.value, null);
  editor.fit();
  showAsRuns(cmd.value);

  try {
    meta = await client.meta();
  } catch (e) {
    verdict.textContent = `The checker could not load: ${e.message}`;
    return;
  }
  presets = meta.presets;
  for (const v of knownReleases()) versionSel.append(new Option(v, v));
  for (const id of ['upgrade-from', 'upgrade-to']) for (const v of knownReleases()) $(id).append(new Option(v, v));
  versionSel.value = meta.version.defaultSglang;
  for (const p of presets) gpuSel.append(new Option(`${p.summary} (${p.preset})`, p.preset));
  const examples = meta.examples || [];
  for (const ex of examples) {
    const o = new Option(ex.title, ex.id);
    o.title = ex.about;
    $('examples').append(o);
  }
  $('examples').addEventListener('change', () => {
    const ex = examples.find((x) => x.id === $('examples').value);
    $('examples').value = '';
    if (!ex) return;
    // The whole text is replaced as one edit: Ctrl+Z (or Undo) brings the previous text back.
    gpuSel.value = ex.gpu;
    gpusIn.value = '';
    updateGpusPlaceholder();
    editText(() => ({ text: ex.command })).then(() => {
      cmd.focus();
      schedule();
      writeHash();
    });
  });
  gpuSel.value = 'h100';
  $('preflight-version').textContent = `sglang-preflight ${meta.version.preflight} · ${meta.version.rules} rules`;
  applyHash();
  schedule();
  // A link from before secrets were kept out of links may carry one: write it again without.
  if (h.cmd !== null) {
    client
      .redactForLink(cmd.value)
      .then((r) => {
        if (r.redacted.length) writeHash();
      })
      .catch(() => {});
  }
}

main();
