/**
 * What the AEP-0003 §9 capture rules read of one event's payload: its `*_digest` members (§9 item 3), the home paths and
 * PII left in its `redacted`-gated text (§9.4 c, d), the content in its metadata-level members (§9 item 2) and the
 * redaction markers in a `full` event (§9 item 5). The classes come from the one detector, src/core/secrets.ts.
 */
import { childPointer, escapeToken } from '../core/pointer.ts';
import { canonicalJson, digest } from '../core/canonical.ts';
import {
  findSecrets,
  FLOOR_SECRET_CLASSES,
  HARDENING_SECRET_CLASSES,
  hostColonAt,
  mayHoldSecret,
  PII_MARK,
  SECRET_MARK,
  type DetectorClass,
} from '../core/secrets.ts';
import { mayHoldEncodedSecret, mayHoldPii, PII_SCREEN, SECRET_OPENINGS } from '../core/secret-patterns.ts';
import { captureRank, forEachGatedString, GatedPath, memberName, type CaptureNode } from './capture.ts';
import { CAPTURE_RANK, type AepEvent } from './event.ts';
import { screened } from './envelope-members.ts';
import { homePathIn } from './redact.ts';
import { namedCredentialIn, namesCredential } from './credential-names.ts';
import { captureTreeFor } from './schema/validators.ts';
import { screenedMembersOf } from './schema/envelope-fast.ts';

/** The suffix that makes a payload member a digest (AEP-0003 §9 item 3: "`*_digest` fields"). */
const DIGEST_SUFFIX = '_digest';

/** The §9 item 3 shape: SHA-256, hex, first 16 bytes (either case: "hex" names no case). */
export const DIGEST_SHAPE = /^[0-9a-fA-F]{32}$/;
/** The algorithm-labelled form of the upstream golden stream (`sha256:9f1c`): `sha256:` and hex digits. */
export const LABELLED_DIGEST = /^sha256:[0-9a-fA-F]{1,64}$/;

/**
 * Each top-level `*_digest` member of `data` holding a string, as member, value pairs in one flat list (top level:
 * every digest the AEP-0002 types and AEP-0007 define is a top-level member, and vendor payloads follow them). The three
 * digest rules read the same event in turn: one walk of its members serves them, and most payloads have none (a
 * shared empty list, no closure an event).
 */
export function digestsOf(data: unknown): readonly string[] {
  if (data === lastDigestData) return lastDigests;
  let out: string[] | undefined;
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const o = data as Record<string, unknown>;
    for (const k in o) {
      if (k.length <= DIGEST_SUFFIX.length || !k.endsWith(DIGEST_SUFFIX)) continue;
      const v = o[k];
      if (typeof v === 'string') (out ??= []).push(k, v);
    }
  }
  lastDigestData = data;
  lastDigests = out ?? NO_DIGESTS;
  return lastDigests;
}

const NO_DIGESTS: readonly string[] = [];
let lastDigestData: unknown;
let lastDigests: readonly string[] = NO_DIGESTS;

/** The §9 item 3 digest of a JSON value: SHA-256 of its canonical JSON, first 16 bytes, lowercase hex. */
export function digestOfValue(ev: AepEvent, pointer: string, value: unknown): string {
  return digest(canonicalJson({ value, bigIntegers: ev.bigIntegers }, pointer))
    .subarray(0, 16)
    .toString('hex');
}

/** The pointer of a top-level payload member. */
export const dataPointer = (member: string): string => `/data/${escapeToken(member)}`;

/** True when a JSON value holds one of the §9.4 redaction markers in a string. */
export function holdsMarker(v: unknown): boolean {
  if (typeof v === 'string') return v.includes(SECRET_MARK) || v.includes(PII_MARK);
  if (v === null || typeof v !== 'object') return false;
  for (const x of Object.values(v)) if (holdsMarker(x)) return true;
  return false;
}

const PII_CLASSES: readonly DetectorClass[] = ['email', 'phone'];
/**
 * Every secret class the detector knows, floor and hardening: metadata-level members carry none of them (AEP-0003 §9
 * item 2), and `aep redact` replaces the same classes there (src/aep/redact.ts `holdsContent`), so one string gets one
 * verdict from the rule and the verb.
 */
const SECRET_CLASSES: readonly DetectorClass[] = [...FLOOR_SECRET_CLASSES, ...HARDENING_SECRET_CLASSES];
/** {@link mayHoldSecret}'s openings or {@link PII_SCREEN}: a string without any holds no detector class as written. */
const CONTENT_SCREEN = new RegExp(`${SECRET_OPENINGS.source}|${PII_SCREEN.source}`, 'i');
/**
 * Short texts {@link mayHoldContent} passed: the screen is a function of the text alone, and names, enum values, ids and
 * versions recur from event to event, where a lookup is a fraction of the expression's cost. Bounded: at most
 * {@link CLEAN_MAX} texts of at most {@link CLEAN_LONGEST} characters, all dropped at once when it is full.
 */
const cleanTexts = new Set<string>();
const CLEAN_LONGEST = 64;
const CLEAN_MAX = 2048;

/** {@link CONTENT_SCREEN}, or an opening or PII that only escapes read decoded show (`Bearer%20...`, `%40`). */
function mayHoldContent(text: string): boolean {
  const short = text.length <= CLEAN_LONGEST;
  if (short && cleanTexts.has(text)) return false;
  if (CONTENT_SCREEN.test(text) || (text.indexOf('%') >= 0 && (mayHoldPii(text) || mayHoldEncodedSecret(text))))
    return true;
  if (short) {
    if (cleanTexts.size >= CLEAN_MAX) cleanTexts.clear();
    cleanTexts.add(text);
  }
  return false;
}

/** The first detector class in `text`: a secret, else (with `pii`) an email address or phone number. */
function firstContentClass(text: string, pii: boolean): DetectorClass | undefined {
  // one scan for the three screens below: most strings pass none
  return mayHoldContent(text) ? screenedContentClass(text, pii) : undefined;
}

/** {@link firstContentClass} of a text {@link mayHoldContent} has passed. */
function screenedContentClass(text: string, pii: boolean): DetectorClass | undefined {
  if (mayHoldSecret(text)) {
    const m = findSecrets(text, { classes: SECRET_CLASSES });
    if (m.length) return m[0]!.class;
  }
  if (!pii || !mayHoldPii(text)) return undefined;
  return findSecrets(text, { classes: PII_CLASSES })[0]?.class;
}

/** What {@link gatedFindings} found in one `redacted`-gated string. */
export interface GatedFinding {
  pointer: string;
  what: 'home' | 'email' | 'phone';
}

/**
 * The home paths and PII classes left in the `redacted`-gated text of an event at capture `redacted` (one finding per
 * kind per string); `full` members are verbatim and not read.
 */
export function gatedFindings(ev: AepEvent): readonly GatedFinding[] {
  return ev.capture === 'redacted' ? redactedTextOf(ev).gated : NO_FINDINGS;
}

/** What the walk of an event's `redacted`-gated text found: {@link gatedFindings} and the leaks (src/aep/leaks.ts). */
export interface RedactedText {
  gated: readonly GatedFinding[];
  /** Pointer, class pairs: each of {@link LEAK_CLASSES} once per string, in the order findSecrets finds them. */
  leaks: readonly (string | DetectorClass)[];
}

/** Every secret class the leak rules ask for (floor and hardening). */
const LEAK_OPTIONS = { classes: SECRET_CLASSES };
const NO_FINDINGS: readonly GatedFinding[] = [];
const NO_LEAKS: readonly (string | DetectorClass)[] = [];
const NOTHING: RedactedText = { gated: NO_FINDINGS, leaks: NO_LEAKS };
let lastEvent: AepEvent | undefined;
let lastText: RedactedText = NOTHING;
// the walk's state (it runs synchronously): no closure an event
let gatedOut: GatedFinding[] | undefined;
let leaksOut: (string | DetectorClass)[] | undefined;

/**
 * The `redacted`-gated text of `ev` read once for the four rules that judge it (leak, provider leak, home path, PII):
 * one walk, and one screen a string, where each walked it and screened each string on its own.
 */
export function redactedTextOf(ev: AepEvent): RedactedText {
  if (ev === lastEvent) return lastText;
  lastEvent = ev;
  lastText = NOTHING;
  const data = ev.value.data;
  if (data === null || typeof data !== 'object') return lastText;
  const tree = ev.info?.captureTree ?? captureTreeFor(ev.type);
  // no tree: a vendor or schema-less type, where no member is marked redacted (AEP-0002 §5.1 rule 2)
  if (!tree) return lastText;
  gatedOut = leaksOut = undefined;
  forEachGatedString(data, tree, visitRedacted);
  if (gatedOut || leaksOut) lastText = { gated: gatedOut ?? NO_FINDINGS, leaks: leaksOut ?? NO_LEAKS };
  gatedOut = leaksOut = undefined;
  return lastText;
}

/** The name of the member the walk stands at, through array items (undefined at the top): {@link memberName}. */
const keyAt = (at: GatedPath, depth = at.depth): string | undefined => memberName(at, depth);

/** A leak of `text` read with its member's name (`"password": "<value>"`), as `aep redact` and AHP read it. */
function namedLeak(text: string, at: GatedPath, pointer: string | undefined): void {
  const cls = namedCredentialIn(keyAt(at), text);
  if (cls !== undefined) (leaksOut ??= []).push(pointer ?? at.pointer(), cls);
}

function visitRedacted(text: string, at: GatedPath): void {
  const content = mayHoldContent(text);
  const home = homePathIn(text);
  if (!content && !home) {
    namedLeak(text, at, undefined);
    return;
  }
  let pointer = home ? at.pointer() : undefined;
  if (pointer !== undefined) (gatedOut ??= []).push({ pointer, what: 'home' });
  if (!content) {
    namedLeak(text, at, pointer);
    return;
  }
  const matches = findSecrets(text, LEAK_OPTIONS);
  if (matches.length === 0) namedLeak(text, at, pointer);
  for (let i = 0; i < matches.length; i++) {
    const cls = matches[i]!.class;
    let seen = false;
    for (let j = 0; j < i && !seen; j++) seen = matches[j]!.class === cls;
    if (!seen) (leaksOut ??= []).push((pointer ??= at.pointer()), cls);
  }
  if (!mayHoldPii(text)) return;
  let email = false;
  let phone = false;
  for (const m of findSecrets(text, { classes: PII_CLASSES })) {
    // user@host:port or user@host:path is a URL's or an SSH address's host, not a mailbox (a warning's narrower reading)
    if (m.class === 'email' && hostColonAt(text, m.end)) continue;
    if (m.class === 'email' && !email) {
      email = true;
      (gatedOut ??= []).push({ pointer: (pointer ??= at.pointer()), what: 'email' });
    } else if (m.class === 'phone' && !phone) {
      phone = true;
      (gatedOut ??= []).push({ pointer: (pointer ??= at.pointer()), what: 'phone' });
    }
  }
}

/**
 * Each metadata-level string (AEP-0002 §5.1 rule 4; not `[metadata*]`) of an event at capture `metadata` or `redacted`
 * with the first secret or PII class in it (AEP-0003 §9 item 2), as pointer, class pairs; no PII in `assessment.*`.
 */
export function metadataContentOf(ev: AepEvent): readonly (string | DetectorClass)[] {
  const rank = captureRank(ev.capture);
  if (rank < CAPTURE_RANK.metadata || rank > CAPTURE_RANK.redacted) return NO_CONTENT;
  const data = ev.value.data;
  if (data === null || typeof data !== 'object') return NO_CONTENT;
  const tree = ev.info?.captureTree ?? captureTreeFor(ev.type);
  // AEP-0009 (Security considerations) makes identifying content in an assessment's metadata tokens a SHOULD, judged
  // there by aep/assessment-label-text (a warning): the more specific sentence decides for PII in those types. A vendor or
  // schema-less type at `redacted` (no tree): whatever its own schema annotates a member, a secret there breaks a MUST
  // (metadata: §9 item 2; redacted: AEP-0002 §5.1 rule 2 and §9.4 a; full: rule 1, omitted), PII only at metadata (rule
  // d is operator-disableable)
  const pii = !ev.type.startsWith('assessment.') && (tree !== undefined || ev.capture === 'metadata');
  contentPii = pii;
  // below `redacted` the `[metadata*]` members are structural stand-ins, never content (AEP-0002 §5.3)
  contentStar = ev.capture === 'metadata';
  contentFound = undefined;
  visitContent(data, tree, 0);
  contentStar = false;
  const out = contentFound ?? NO_CONTENT;
  contentFound = undefined;
  return out;
}

/**
 * {@link metadataContentOf} for the envelope: `subject` and each extension attribute travel at every capture, `none`
 * included (AEP-0001 §8.2), so at `none` to `redacted` their strings, at any depth, are screened as metadata-level.
 */
export function envelopeContentOf(ev: AepEvent): readonly (string | DetectorClass)[] {
  if (captureRank(ev.capture) > CAPTURE_RANK.redacted) return NO_CONTENT;
  const o = ev.value;
  contentFound = undefined;
  // the members the envelope fast path read on its walk, when it passed this envelope (no second walk of them all)
  const kept = screenedMembersOf(o);
  if (kept !== undefined) for (let i = 0; i < kept.count; i++) screenMember(ev, kept.names[i]!, kept.values[i]);
  else for (const k in o) if (screened(k)) screenMember(ev, k, o[k]);
  const out = contentFound ?? NO_CONTENT;
  contentFound = undefined;
  return out;
}

/** {@link envelopeContentOf} of envelope member `k`, one {@link screened} names, holding `v`. */
function screenMember(ev: AepEvent, k: string, v: unknown): void {
  if (typeof v === 'string' && !mayHoldContent(v) && !namesCredential(k)) return;
  contentPii = !ev.type.startsWith('assessment.');
  contentAt = envelopeAt;
  envelopeAt.keys[0] = k;
  visitContent(v, undefined, 1);
  contentAt = dataAt;
}

const NO_CONTENT: readonly (string | DetectorClass)[] = [];
// the walk's state (it runs synchronously): no closure and no path object an event
let contentPii = false;
let contentStar = false;
let contentFound: (string | DetectorClass)[] | undefined;
const dataAt = new GatedPath('/data');
const envelopeAt = new GatedPath('');
let contentAt = dataAt;

const readsContent = (child: CaptureNode | undefined): boolean =>
  !child || (child.level === 'metadata' && (!child.star || contentStar));

const CONTENT_RECURSION_LIMIT = 1024;

function visitContent(v: unknown, node: CaptureNode | undefined, depth: number): void {
  if (depth >= CONTENT_RECURSION_LIMIT && v !== null && typeof v === 'object') {
    contentAt.depth = depth;
    visitDeep(v, contentAt.pointer(), memberName(contentAt, depth));
    return;
  }
  if (typeof v === 'string') {
    let cls: DetectorClass | undefined;
    if (node === undefined || node.clean !== v) {
      if (!mayHoldContent(v)) {
        if (node !== undefined) node.clean = v;
      } else cls = screenedContentClass(v, contentPii);
    }
    if (cls === undefined) {
      const key = keyAt(contentAt, depth);
      // a name that names no credential leaves nothing to read (namedCredentialIn), and a node's name recurs
      if (node === undefined || node.plainName !== key) {
        if (node !== undefined && typeof key === 'string' && !namesCredential(key)) node.plainName = key;
        else cls = namedCredentialIn(key, v);
      }
    }
    if (cls !== undefined) {
      // the pointer of a string is built only when something is found in it (most strings: nothing)
      contentAt.depth = depth;
      (contentFound ??= []).push(contentAt.pointer(), cls);
    }
    return;
  }
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    const child = node?.items;
    if (!readsContent(child)) return;
    for (let i = 0; i < v.length; i++) {
      contentAt.keys[depth] = i;
      visitContent(v[i], child, depth + 1);
    }
    return;
  }
  for (const k in v as Record<string, unknown>) {
    const child = node?.properties?.get(k);
    if (!readsContent(child)) continue;
    contentAt.keys[depth] = k;
    visitContent((v as Record<string, unknown>)[k], child, depth + 1);
  }
}

/** {@link visitContent} past its recursion limit, with an explicit stack; each string read with its member's name. */
function visitDeep(v: unknown, pointer: string, name0: string | undefined): void {
  const stack: [unknown, string, string | undefined][] = [[v, pointer, name0]];
  while (stack.length > 0) {
    const [x, p, name] = stack.pop()!;
    if (typeof x === 'string') {
      const cls = firstContentClass(x, contentPii) ?? namedCredentialIn(name, x);
      if (cls !== undefined) (contentFound ??= []).push(p, cls);
    } else if (x !== null && typeof x === 'object') {
      const arr = Array.isArray(x);
      const entries: [string | number, unknown][] = arr ? x.map((y, i) => [i, y]) : Object.entries(x);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, y] = entries[i]!;
        stack.push([y, childPointer(p, k), arr ? name : (k as string)]);
      }
    }
  }
}
