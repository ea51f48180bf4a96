// The rules' own explanations, which the wasm goes without (src/lib.rs `expl!`): a diagnostic's
// `explanation` says `{explanation}` where its rule's text belongs, and the site has the texts in
// rules/explanations/<family>.json (scripts/build-web.sh), one file per code family (`KV029` ->
// KV.json), so a report that shows a few families fetches only theirs.

/** Where a rule's own explanation belongs in a diagnostic's `explanation`. */
export const RULE_EXPLANATION = '{explanation}';

/** A rule's family: its code's letters (`KV029` -> `KV`), which name its file of explanations. */
export const familyOf = (code) => code.replace(/\d+$/, '');

/** The rules' explanations by code, per family once fetched, and the fetches running. */
const loaded = new Map();
const loading = new Map();

/** The texts of `family` if they are here already (else undefined). */
export const ruleTextsIfLoaded = (family) => loaded.get(family);

/** rules/explanations/<family>.json, next to this module: fetched once. A failed fetch (offline
 * before the service worker stored it) is tried again by a later call. */
export function loadRuleTexts(family) {
  if (!loading.has(family)) {
    const load = fetch(new URL(`./rules/explanations/${encodeURIComponent(family)}.json`, import.meta.url))
      .then((r) => {
        if (!r.ok) throw new Error(`rules/explanations/${family}.json: HTTP ${r.status}`);
        return r.json();
      })
      .then((texts) => {
        loaded.set(family, texts);
        return texts;
      });
    loading.set(family, load);
    load.catch(() => loading.delete(family));
  }
  return loading.get(family);
}

/** `explanation` with `rule` (the rule's own text) put in where it belongs. */
export const withRuleText = (explanation, rule) => explanation.split(RULE_EXPLANATION).join(rule).trim();

/**
 * Put the rules' texts into every diagnostic of `value` (a report, or any result holding
 * diagnostics: objects with a `code` and an `explanation`), in place; returns `value`. A family
 * whose file cannot be fetched leaves its diagnostics' explanations without the rule's text.
 */
export async function fillRuleTexts(value) {
  const found = [];
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (typeof v.code === 'string' && typeof v.explanation === 'string' && v.explanation.includes(RULE_EXPLANATION)) found.push(v);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  const families = [...new Set(found.map((d) => familyOf(d.code)))];
  const texts = new Map(await Promise.all(families.map(async (f) => [f, await loadRuleTexts(f).catch(() => ({}))])));
  for (const d of found) d.explanation = withRuleText(d.explanation, texts.get(familyOf(d.code))?.[d.code] ?? '');
  return value;
}
