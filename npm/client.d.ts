// Types of client.js: the checker worker's client, for pages that show reports their own way.
import type { CheckOptions, CommandFlags, Edit, Edited, FixedAll, ModelConfigStatus, Preset, Redacted, Report, Schema, VersionInfo } from './pkg/sglang_preflight.js';

/** A request exceeded its time budget: it was abandoned and the worker replaced. */
export declare class CheckAbandoned extends Error {}
/** The checker crashed (a bug in sglang-preflight) or could not load. */
export declare class CheckerCrashed extends Error {}

/** The worker name of a replacement worker (it is given the compiled module). */
export declare const REPLACEMENT_NAME: string;

export interface PreflightClientOptions {
  /** Time budget of one request once the checker is loaded, in ms (default 2000). */
  budgetMs?: number;
  /** Time budget for loading the checker (the wasm) in a new worker, and for fetching the flags
   *  of a release the wasm does not carry when a request needs them, in ms (default 20000). */
  loadBudgetMs?: number;
  /** The URL worker.js is found next to (default: client.js's own URL). */
  base?: string | URL;
  /** A worker already started for this page, and the events it sent before the client existed. */
  adopt?: { worker: Worker; early: Event[] } | null;
  /** Whether `check` puts the rules' own explanations into its findings (default true): the wasm
   * goes without them, and the client fetches `rules/explanations/<family>.json` for the families
   * a report names. With false, a finding says `{explanation}` where its rule's text belongs. */
  ruleTexts?: boolean;
}

/**
 * Runs checks in a worker (worker.js, which loads the wasm), one request at a time, each with
 * its own time budget; a request that exceeds it, or crashes the checker, fails alone and the
 * worker is replaced for the requests behind it.
 */
export declare class PreflightClient {
  constructor(options?: PreflightClientOptions);
  budgetMs: number;
  loadBudgetMs: number;
  /** Where replacement workers start from. */
  workerUrl: URL | string;
  /** How many times the worker was replaced. */
  readonly restarts: number;
  /** Called with the reason each time the worker is replaced. */
  onrestart: ((reason: Error) => void) | null;
  /** Every request not yet answered, by id (the active one first). */
  readonly pending: Map<number, unknown>;
  /** Send one request (`op` is a worker operation); `budgetMs` overrides the budget for this one. */
  request(op: string, payload?: Record<string, unknown>, budgetMs?: number): Promise<unknown>;
  /** Check every SGLang launch command in `text` (the findings' explanations whole unless the
   * client was made with `ruleTexts: false`). `modelsLater`: when `text` names a model and the
   * model catalog is not loaded yet, the report comes at once without it (no model known; the
   * checks that read its config are listed as not run) and says `models_loading: true`; a later
   * check without the flag waits for the catalog. */
  check(text: string, options?: CheckOptions, how?: { modelsLater?: boolean }): Promise<Report & { models_loading?: true }>;
  /** This build's versions and the hardware presets. */
  meta(): Promise<{ version: VersionInfo; presets: Preset[] }>;
  /** The flag schema of an SGLang version. */
  schema(version: string): Promise<Schema>;
  /** The text after a fix's edits. */
  applyEdits(text: string, edits: Array<Pick<Edit, 'start' | 'end' | 'replacement'>>): Promise<Edited>;
  /** The flags command `command` (0-based) of `text` sets, by main option string. */
  commandFlags(text: string, version: string, command?: number): Promise<CommandFlags>;
  /** `text` with one flag set (string), switched (boolean) or removed (null); null if unchanged. */
  setFlag(text: string, version: string, option: string, value: string | boolean | null, command?: number): Promise<Edited | null>;
  /** "Apply all safe fixes" (the CLI's `--fix`): the fixed text and the combined edits against `text`. */
  fixAll(text: string, options?: CheckOptions, unsafeFixes?: boolean): Promise<FixedAll>;
  /** The text for a link: secret values replaced by `<NAME>` placeholders. */
  redactForLink(text: string): Promise<Redacted>;
  /** `text` with every argument of command `command` dropped; null if it has none. */
  clearFlags(text: string, command?: number): Promise<Edited | null>;
  /** Whether a pasted config.json (and hf_quant_config.json) can be read, and what it names. */
  readModelConfig(config: string, hfQuant?: string): Promise<ModelConfigStatus>;
}
