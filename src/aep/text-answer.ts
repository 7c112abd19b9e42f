/**
 * AEP-0008 (AEP-0002 §5.3 amended): a text-only answer against a request's `options`. Text that, after trimming,
 * case-insensitively equals an option's id, or exactly one option's label, names that option; and which options read
 * as permissive or refusing, by the words of their ids (a name heuristic: only the adapter that minted an option
 * knows what it does, AEP-0008 Rationale).
 */

/** The options of an attention request as a text answer is matched against them. */
export interface OptionSet {
  /** The option ids, as written. */
  ids: readonly string[];
  /** The labels, one per id, when they are the real ones (capture `redacted`+, or no placeholder); else `undefined`. */
  labels?: readonly string[];
}

/** What a text-only answer names. */
export type TextMatch =
  /** The option the text names (by id, or by exactly one label). */
  | { status: 'matched'; option: string }
  /** The text names no option and the labels were real, so the verdict is decided. */
  | { status: 'unmatched' }
  /** The text names no option id and the labels were placeholders: a label match cannot be ruled out. */
  | { status: 'unknown' };

/**
 * The options of an `attention.requested` payload (`options: [{id, label}]`), or `undefined` when it has none; the
 * labels are kept when `realLabels` (capture `redacted`+) or when no label is a placeholder.
 */
export function optionSetOf(data: unknown, realLabels: boolean): OptionSet | undefined {
  const options = (data as { options?: unknown } | null | undefined)?.options;
  if (!Array.isArray(options) || options.length === 0) return undefined;
  const ids: string[] = [];
  const labels: string[] = [];
  for (const o of options) {
    const id = (o as { id?: unknown } | null)?.id;
    const label = (o as { label?: unknown } | null)?.label;
    if (typeof id !== 'string') return undefined;
    ids.push(id);
    labels.push(typeof label === 'string' ? label : '');
  }
  // below redacted a label may be a placeholder (AEP-0006: the 1-based index, or the id after a hop's degradation);
  // labels that are none of those are the real, structural ones (vendor-fixed strings such as "Allow")
  const placeholder = (label: string, i: number) => label === ids[i] || /^[0-9]+$/.test(label) || label === '';
  return realLabels || !labels.some(placeholder) ? { ids, labels } : { ids };
}

/** Match `text` against `set` (AEP-0008 §1: trimmed, case-insensitive; an id first, else exactly one label). */
export function matchText(text: string, set: OptionSet): TextMatch {
  const t = text.trim().toLowerCase();
  for (const id of set.ids) if (id.toLowerCase() === t) return { status: 'matched', option: id };
  if (!set.labels) return { status: 'unknown' };
  let found: string | undefined;
  let n = 0;
  set.labels.forEach((label, i) => {
    if (label.trim().toLowerCase() === t) {
      n++;
      found = set.ids[i];
    }
  });
  return n === 1 && found !== undefined ? { status: 'matched', option: found } : { status: 'unmatched' };
}

/** Words of an option id that read as a refusal (checked first: `reject_once` refuses); README and explain list them. */
export const REFUSING_WORDS: readonly string[] = [
  'deny',
  'denied',
  'reject',
  'rejected',
  'refuse',
  'refused',
  'no',
  'block',
  'blocked',
  'decline',
  'declined',
  'disallow',
  'cancel',
  'abort',
  'stop',
  'never',
];
/**
 * Words of an option id that read as a grant (`session` grants a scoped allowlist entry, AEP-0008 Rationale); README
 * and explain list them.
 */
export const PERMISSIVE_WORDS: readonly string[] = [
  'allow',
  'allowed',
  'approve',
  'approved',
  'accept',
  'accepted',
  'yes',
  'grant',
  'granted',
  'permit',
  'always',
  'once',
  'session',
  'ok',
  'okay',
  'proceed',
  'confirm',
  'continue',
];
const REFUSING = new Set(REFUSING_WORDS);
const PERMISSIVE = new Set(PERMISSIVE_WORDS);

/** How an option id reads: `refusing`, `permissive`, or `unknown` (words split at non-letters and camelCase). */
export function optionStance(id: string): 'refusing' | 'permissive' | 'unknown' {
  const words = id
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== '');
  if (words.some((w) => REFUSING.has(w))) return 'refusing';
  return words.some((w) => PERMISSIVE.has(w)) ? 'permissive' : 'unknown';
}

/** A `control.attention.respond` whose answer is text only, against a request that offered `options` (AEP-0008). */
export interface TextAnswer {
  match: TextMatch;
  permission: boolean;
  /** The request was still open when the command came. */
  requestOpen: boolean;
}

/** The AEP-0008 verdict of a respond's answer that is text only, against the options of the request it names. */
export function textAnswerOf(
  data: Record<string, unknown> | undefined,
  request: { options?: OptionSet; kind?: string; terminal?: unknown } | undefined,
): TextAnswer | undefined {
  const answer = data?.answer as { option?: unknown; text?: unknown; values?: unknown } | undefined;
  if (typeof answer?.text !== 'string' || answer.option !== undefined || answer.values !== undefined) return undefined;
  if (!request?.options) return undefined;
  return {
    match: matchText(answer.text, request.options),
    permission: request.kind === 'permission',
    requestOpen: request.terminal === undefined,
  };
}

/**
 * Whether a permission request's text-only answer was applied as a permissive option the text does not name: text
 * naming no option, or naming another one (an emitter that applied another option did not map it, so for that emitter
 * it was unmatched text, AEP-0008 §1). `undefined` when that cannot be told (placeholder labels, no option applied).
 */
export function appliedPermissiveUnnamed(text: TextAnswer | undefined, applied: string | undefined): boolean {
  if (!text?.permission || applied === undefined || text.match.status === 'unknown') return false;
  if (text.match.status === 'matched' && text.match.option === applied) return false;
  return optionStance(applied) === 'permissive';
}
