// Types of widget.js: importing it defines the <sglang-preflight> element (it exports no values).
// The report types of the WebAssembly binding are re-exported, so `import type { Report } from
// 'sglang-preflight'` works.
import type { Report } from './pkg/sglang_preflight.js';

export type * from './pkg/sglang_preflight.js';

/** Events an <sglang-preflight> element dispatches after each check of its command. */
export interface SglangPreflightEventMap extends HTMLElementEventMap {
  /** The command was checked; `accepted`: SGLang would start with it. */
  'preflight-checked': CustomEvent<{ accepted: boolean }>;
  /** No verdict (the check was abandoned, the checker crashed or could not load); `message` says why. */
  'preflight-failed': CustomEvent<{ message: string }>;
}

/**
 * `<sglang-preflight command="python -m sglang.launch_server ..." gpu="h100" gpus="8"
 * sglang-version="0.5.23" yaml="...">`: checks its command (the `command` attribute, else its
 * text) in a worker next to widget.js and shows the verdict and findings in its shadow root.
 * Without `sglang-version`, the release the command names (`lmsysorg/sglang:v0.5.20`,
 * `sglang==0.5.19`), else the newest; an older release's flags are fetched from `releases/`
 * next to widget.js. The model the command names is looked up in the model catalog
 * (`models/catalog.json` next to widget.js, fetched once) unless `model-config` gives its
 * config.json. Changing an attribute checks again. Compact: the verdict and the errors;
 * warnings and notes behind a toggle; Copy command; a link to the full page with the command.
 * `theme="light"` or `"dark"` picks the colours (default: the reader's prefers-color-scheme).
 */
export interface SglangPreflightElement extends HTMLElement {
  /** The command checked: the `command` attribute, else the element's trimmed text. */
  readonly command: string;
  /** The last report, or null while a check is under way or after a failed one. */
  readonly report: Report | null;
  /** The model's config.json text (or null): checked against it instead of the built-in model
   *  catalog (which is fetched from `models/catalog.json` next to widget.js when a command names
   *  a model). Also the `model-config` attribute. Setting it checks again. */
  modelConfig: string | null;
  addEventListener<K extends keyof SglangPreflightEventMap>(
    type: K,
    listener: (this: SglangPreflightElement, ev: SglangPreflightEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof SglangPreflightEventMap>(
    type: K,
    listener: (this: SglangPreflightElement, ev: SglangPreflightEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'sglang-preflight': SglangPreflightElement;
  }
}
