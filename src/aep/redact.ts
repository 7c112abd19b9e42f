/**
 * The AEP-0003 §9.4 redaction pipeline over an event's `redacted`-gated text. "A floor, not a ceiling": also any
 * `/home/<user>`, credential-named members and unterminated PEM blocks; `*_digest` members never (§9 item 3).
 */
import { findSecrets, mayHoldPii, PII_MARK, replaceMatches, SECRET_MARK, type SecretMatch } from '../core/secrets.ts';
import type { CaptureNode } from './capture.ts';
import { isCredentialName, namedCredentialIn, normName } from './credential-names.ts';
import { screened } from './envelope-members.ts';
import { CAPTURE_RANK } from './event.ts';
import { captureTreeFor } from './schema/validators.ts';
import { AEP_0007, subprofileCaptureTree } from './subprofile.ts';
import { sameJson } from '../core/value.ts';

/** Options of the redaction pipeline (AEP-0003 §9.4). */
export interface RedactOptions {
  /** (b) Names of environment variables / config keys whose values are secret (case-insensitive). */
  secretNames?: readonly string[];
  /** (b) Literal secret values to replace wherever they occur (e.g. the current values of `secretNames`). */
  secretValues?: readonly string[];
  /** (c) The home directory prefix replaced by `~`; `false` turns the home rule off. Default: none (only the generic `/home/<user>`, `/Users/<user>` hardening). */
  home?: string | false;
  /** (d) Redact emails and phone numbers (default true; AEP-0003 §9.4 d: on by default at `redacted`). */
  pii?: boolean;
}

/** A pipeline compiled once from {@link RedactOptions} (its patterns built once, reused per call). */
export interface Redactor {
  /** Redact a text by AEP-0003 §9.4 rules (a)-(d) (the same string when nothing matched). */
  text(s: string): string;
  /** Redact a JSON value (a deep copy; non-string leaves untouched, credential-named members dropped to the mark). */
  value(v: unknown): unknown;
  /** Rule (b) alone: configured names' assignment values and configured values (absent when none is configured). */
  configured?(s: string): string;
  /** True when `key` is a configured secret name (rule b, case-insensitive). */
  secretName?(key: string): boolean;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HOME_GENERIC = /(?<![\w.~-])(?:\/home\/|\/Users\/|[A-Za-z]:\\Users\\)[A-Za-z0-9._-]+(?=[/\\]|$|[^\w.-])/g;
const PII_CLASSES = ['email', 'phone'] as const;
const HOME_TEST = new RegExp(HOME_GENERIC.source);

/**
 * True when `text` holds a user home directory prefix of the conventional layouts (`/home/<user>`, `/Users/<user>`,
 * `C:\Users\<user>`) that the §9.4 rule (c) pipeline replaces with `~` (the check of `aep/redaction-home-path`).
 */
export function homePathIn(text: string): boolean {
  return (text.includes('/home/') || text.includes('Users')) && HOME_TEST.test(text);
}

/** The `[start, end)` ranges of the home directory prefixes {@link homePathIn} finds in `text`. */
export function homePathRanges(text: string): { start: number; end: number }[] {
  if (!text.includes('/home/') && !text.includes('Users')) return [];
  const out: { start: number; end: number }[] = [];
  for (const m of text.matchAll(HOME_GENERIC)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/** Compile the pipeline for `opts` once; empty names and values are ignored. */
export function createRedactor(opts: RedactOptions = {}): Redactor {
  const names = (opts.secretNames ?? []).filter((n) => n.length > 0);
  // operator options, every metacharacter escaped: literal names, never a pattern from the data
  const namesAlt = names.map(escapeRe).join('|');
  const namesRe = namesAlt
    ? new RegExp(`(?<![A-Za-z0-9_])(?:${namesAlt})["']?\\s*[=:]\\s*(?:"([^"\\r\\n]*)"|'([^'\\r\\n]*)'|(\\S+))`, 'gi')
    : undefined;
  const nameSet = new Set(names.map(normName));
  const values = [...new Set((opts.secretValues ?? []).filter((v) => v.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  const valuesRe = values.length ? new RegExp(values.map(escapeRe).join('|'), 'g') : undefined;
  const home = typeof opts.home === 'string' ? opts.home.replace(/[/\\]+$/, '') : undefined;
  const homeRe = home ? new RegExp(`(?<![\\w.~-])${escapeRe(home)}(?=[/\\\\]|$|[^\\w.-])`, 'g') : undefined;
  const homeOn = opts.home !== false;
  const pii = opts.pii !== false;

  const configured = (s: string): string => {
    let out = s;
    if (namesRe) {
      const ms: SecretMatch[] = [];
      namesRe.lastIndex = 0;
      for (let m = namesRe.exec(out); m !== null; m = namesRe.exec(out)) {
        const v = m[1] ?? m[2] ?? m[3] ?? '';
        if (v.length === 0 || v.startsWith(SECRET_MARK)) continue;
        const end = m[3] !== undefined ? m.index + m[0].length : m.index + m[0].length - 1;
        ms.push({ class: 'assignment', start: end - v.length, end });
      }
      out = replaceMatches(out, ms, SECRET_MARK);
    }
    // a configured value is replaced wherever it occurs, but never inside a mark already written
    return valuesRe ? outsideMarks(out, (t) => t.replace(valuesRe, SECRET_MARK)) : out;
  };

  const text = (s: string): string => {
    // (a) secrets and credentials, then (b) configured names and values
    let out = configured(settle(s, false));
    // (c) home paths
    if (homeOn) {
      if (homeRe) out = outsideMarks(out, (t) => t.replace(homeRe, '~'));
      out = outsideMarks(out, (t) => t.replace(HOME_GENERIC, '~'));
    }
    // (d) PII; then (a) and (d) again until the detector finds nothing: a replacement can make what follows it
    // start a word (`[REDACTED:secret]ghp_...`), and the mark of one rule never hides the match of another
    return settle(out, pii);
  };

  const value = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(value);
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = isCredentialName(k, nameSet, x) ? markStrings(x) : value(x);
    return o;
  };
  return {
    text,
    value,
    ...(namesRe || valuesRe ? { configured } : {}),
    secretName: (k) => nameSet.has(normName(k)),
  };
}

/** Most passes of {@link settle}; a text still flagged after them is replaced whole (never reached in practice). */
const MAX_PASSES = 32;
const MARKS = /\[REDACTED:(?:secret|pii)\]/g;

/** The fixed point of {@link settle} and the passes it took, or `passes: undefined` when none was reached. */
function fixedPoint(s: string, pii: boolean): { text: string; passes: number | undefined } {
  let out = s;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const found = findSecrets(out);
    if (found.length > 0) {
      out = replaceMatches(out, found, SECRET_MARK);
      continue;
    }
    const personal = pii ? findSecrets(out, { classes: PII_CLASSES }) : [];
    if (personal.length === 0) return { text: out, passes: pass };
    out = replaceMatches(out, personal, PII_MARK);
  }
  return { text: SECRET_MARK, passes: undefined };
}

/** `s` with every flagged span (secrets, PII when `pii`) marked, repeated to a fixed point of the one detector. */
function settle(s: string, pii: boolean): string {
  return fixedPoint(s, pii).text;
}

/**
 * The passes the redaction of `s` takes to reach its fixed point, or undefined when it is not reached within the bound
 * (then the text is replaced whole): for tests, which hold that the bound is never what ends it.
 */
export function redactionPasses(s: string, pii = true): number | undefined {
  return fixedPoint(s, pii).passes;
}

/** `s` with `f` applied to each stretch between the marks already written (a mark is never cut into). */
function outsideMarks(s: string, f: (t: string) => string): string {
  if (!s.includes('[REDACTED:')) return f(s);
  let out = '';
  let pos = 0;
  MARKS.lastIndex = 0;
  for (let m = MARKS.exec(s); m !== null; m = MARKS.exec(s)) {
    out += f(s.slice(pos, m.index)) + m[0];
    pos = m.index + m[0].length;
  }
  return out + f(s.slice(pos));
}

/** Every string and number inside `v` replaced by the secret mark (a credential-named member's value). */
function markStrings(v: unknown): unknown {
  // a number under a credential name is its value too (`"pin": 1234`, `"api_key": 12345678901234`)
  if (typeof v === 'string' || typeof v === 'number') return v === '' ? v : SECRET_MARK;
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(markStrings);
  const o: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) o[k] = markStrings(x);
  return o;
}

/** True when `s` holds a secret, email address or phone number (as `aep/metadata-content` reads it). */
function holdsContent(s: string): boolean {
  return findSecrets(s).length > 0 || (mayHoldPii(s) && findSecrets(s, { classes: PII_CLASSES }).length > 0);
}

/**
 * True when a string anywhere in `v` holds a secret, email address or phone number, or is the value of a member the
 * detector reads as a credential by its name (`"password": "<value>"`).
 */
export function contentIn(v: unknown, name?: string): boolean {
  if (typeof v === 'string') return holdsContent(v) || (name !== undefined && namedCredentialIn(name, v) !== undefined);
  if (v === null || typeof v !== 'object') return false;
  // an array's items are its member's values (`"password": ["<value>"]`)
  if (Array.isArray(v)) return v.some((x) => contentIn(x, name));
  for (const k in v) if (contentIn((v as Record<string, unknown>)[k], k)) return true;
  return false;
}

/** Gated text, and metadata-level content, of `data` through `r` by `tree` (same object when unchanged). */
export function redactGated(data: unknown, tree: CaptureNode, r: Redactor): unknown {
  // `key`: the member's name, through array items the name of the member holding the array (as validate reads it)
  const walk = (v: unknown, node: CaptureNode | undefined, key: string | undefined): unknown => {
    if (node && (node.level === 'redacted' || node.star)) {
      const out = r.value(v);
      return sameJson(out, v) ? v : out;
    }
    if (node && CAPTURE_RANK[node.level] > CAPTURE_RANK.redacted) return v;
    // AEP-0003 §9 item 2: no content in metadata-level members (aep/metadata-content at `redacted`)
    if (typeof v === 'string') return typeof key === 'string' && key.endsWith('_digest') ? v : metadataText(v, key, r);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = walk(x, node?.items, key);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const y = walk(x, node?.properties?.get(k), k);
      if (y !== x) changed = true;
      out[k] = y;
    }
    return changed ? out : v;
  };
  return walk(data, tree, undefined);
}

/**
 * A metadata-level string through `r`: holding content, through the pipeline; the value of a member the detector reads
 * as a credential by its name (`"password": "<value>"`, as aep/metadata-content reads it), the mark; else rule (b).
 */
function metadataText(v: string, key: string | number | undefined, r: Redactor): string {
  if (holdsContent(v)) return r.text(v);
  return namedCredentialIn(key, v) !== undefined ? SECRET_MARK : configuredText(v, r);
}

function configuredText(v: string, r: Redactor): string {
  const out = r.configured?.(v) ?? v;
  return out === v ? v : out;
}

/** Every string of `v` but a `*_digest` member's through rule (b) alone; the same value when none changed. */
function configuredIn(v: unknown, r: Redactor, key?: string | number): unknown {
  if (typeof v === 'string') return typeof key === 'string' && key.endsWith('_digest') ? v : configuredText(v, r);
  if (v === null || typeof v !== 'object') return v;
  let changed = false;
  const arr = Array.isArray(v);
  const out: Record<string, unknown> | unknown[] = arr ? [] : {};
  for (const [k, x] of Object.entries(v)) {
    const y = configuredIn(x, r, arr ? Number(k) : k);
    if (y !== x) changed = true;
    (out as Record<string, unknown>)[k] = y;
  }
  return changed ? out : v;
}

/** `v` without its members annotated `full` (what a `redacted` event may not carry, AEP-0001 §8.2(a)); same when none. */
function withoutFull(v: unknown, node: CaptureNode | undefined): unknown {
  if (!node || v === null || typeof v !== 'object') return v;
  let changed = false;
  if (Array.isArray(v)) {
    const out = v.map((x) => {
      const y = withoutFull(x, node.items);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : v;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const c = node.properties?.get(k);
    if (c && CAPTURE_RANK[c.level] > CAPTURE_RANK.redacted) changed = true;
    else {
      const y = withoutFull(x, c);
      if (y !== x) changed = true;
      out[k] = y;
    }
  }
  return changed ? out : v;
}

/** `data` wholly through `r` (a type without annotations), the same object when nothing changed. */
function redactAll(data: unknown, r: Redactor): unknown {
  const out = r.value(data);
  return sameJson(out, data) ? data : out;
}

/**
 * The capture annotations a hop follows for `type`: its payload schema's, and under `profile` `aep-0007` the
 * sub-profile's (AEP-0007 §4); `undefined` for a schema-less type (README §Share a log safely).
 */
export function hopCaptureTree(type: string, profile?: string): CaptureNode | undefined {
  return captureTreeFor(type) ?? (profile === AEP_0007 ? subprofileCaptureTree(type) : undefined);
}

/**
 * One event with its gated text redacted (all of `data` without annotations); same object when unchanged. `subject` and
 * the extension attributes are read at every level, `full` too (they travel at every level, AEP-0003 §9 item 2). A
 * `full` event in which anything was replaced becomes `redacted` without its `full` members (AEP-0003 §9 item 5;
 * AEP-0001 §8.2). `profile`: `aep-0007` gives the sub-profile's types their annotations ({@link hopCaptureTree}).
 */
export function redactEvent(
  event: Readonly<Record<string, unknown>>,
  r: Redactor,
  profile?: string,
): Record<string, unknown> {
  const envelope = new Map<string, unknown>();
  for (const [k, v] of Object.entries(event)) {
    if (!screened(k)) continue;
    const w = envelopeValue(v, k, r);
    if (w !== v) envelope.set(k, w);
  }
  let capture = event.capture;
  let data = event.data;
  if ((capture === 'redacted' || capture === 'full') && data !== undefined && typeof event.type === 'string') {
    const tree = hopCaptureTree(event.type, profile);
    // without annotations no member can be told apart as structure: every string is treated as
    // redacted-gated text (redacting more than the floor is allowed, AEP-0003 §9.4)
    const red = tree ? redactGated(data, tree, r) : redactAll(data, r);
    // a replaced envelope member makes the copy no more verbatim than a replaced payload string
    if (capture === 'full' && (red !== data || envelope.size > 0)) capture = 'redacted';
    // at `redacted` (declared or now honoured) no `full` member stays: the capture verbs never pass one on below `full`
    data = capture === 'redacted' ? withoutFull(red, tree) : red;
  } else if (capture === 'full' && envelope.size > 0) capture = 'redacted';
  else if (data !== undefined && r.configured) {
    // a metadata-level payload: rule (b) still holds (a detector class there fails aep/metadata-content)
    data = configuredIn(data, r);
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(event)) {
    const w = k === 'data' ? data : k === 'capture' ? capture : envelope.has(k) ? envelope.get(k) : v;
    if (w !== v) changed = true;
    out[k] = w;
  }
  if (!changed) return event as Record<string, unknown>;
  return out;
}

let floorRedactor: Redactor | undefined;

/** The pipeline with its defaults (no configured names, the generic home layouts, PII on), compiled once. */
export function defaultRedactor(): Redactor {
  return (floorRedactor ??= createRedactor());
}

/** `event` with its metadata-level content (envelope; with `tree` the payload's) through `r` (AEP-0003 §9 item 2). */
export function screenMetadataLevel(
  event: Readonly<Record<string, unknown>>,
  tree: CaptureNode | undefined,
  r: Redactor,
): Record<string, unknown> {
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(event)) {
    const w = k === 'data' ? (tree ? redactGated(v, tree, r) : v) : screened(k) ? envelopeValue(v, k, r) : v;
    if (w !== v) changed = true;
    out[k] = w;
  }
  return changed ? out : (event as Record<string, unknown>);
}

/**
 * `subject` or an extension attribute through `r` as a metadata-level member (AEP-0003 §9 item 2): a string holding
 * content through the pipeline, any other through rule (b); a configured name's value marked; same when unchanged.
 */
function envelopeValue(v: unknown, key: string | undefined, r: Redactor): unknown {
  if (typeof key === 'string' && r.secretName?.(key)) {
    const m = markStrings(v);
    return sameJson(m, v) ? v : m;
  }
  if (typeof v === 'string') {
    if (typeof key === 'string' && key.endsWith('_digest')) return v;
    return metadataText(v, key, r);
  }
  if (v === null || typeof v !== 'object') return v;
  const arr = Array.isArray(v);
  const out: Record<string, unknown> | unknown[] = arr ? [] : {};
  let changed = false;
  for (const [k, x] of Object.entries(v)) {
    const y = envelopeValue(x, arr ? key : k, r);
    if (y !== x) changed = true;
    (out as Record<string, unknown>)[k] = y;
  }
  return changed ? out : v;
}
