/**
 * A verdict fast path for the AEP envelope (schemas/aep/envelope.schema.json, AEP-0001 §5.1-§5.2): one pass over the
 * members of the common shapes. It only ever answers "surely valid"; false sends the event to the generated
 * validator, which decides. test/aep-schemas/envelope-fast.test.ts holds it to that validator; ENVELOPE_PRINT turns it
 * off for an envelope schema it was not written against (docs/architecture.md §Hand-tuned code).
 */
import { readFileSync } from 'node:fs';
import { fnv32 } from '../../core/canonical.ts';
import { packageUrl } from '../../core/paths.ts';
import { MEMO_FORMATS } from '../../core/schema/memo-pattern.ts';
import { TextMemo } from '../../core/text-memo.ts';

/** FNV-1a of the envelope schema this path was written against: another turns it off (envelope-fast.test.ts). */
export const ENVELOPE_PRINT = 0x5e32b82c;

/** The print of the envelope schema as shipped ({@link ENVELOPE_PRINT} when this path was read against it). */
export function envelopePrint(): number {
  const text = readFileSync(packageUrl('schemas/aep/envelope.schema.json'), 'utf8');
  return fnv32(JSON.stringify(JSON.parse(text)));
}

let on: boolean | undefined;
/** Whether the fast path answers at all: the envelope schema is the one it was written against. */
export function envelopeFastOn(): boolean {
  return (on ??= envelopePrint() === ENVELOPE_PRINT);
}

/**
 * Envelopes the generated validator decides before the print is read: hashing the schema's text was the only loop of a
 * run of a few dozen events hot enough for V8's optimizing compiler (~4 MB of its peak RSS, docs/benchmarks.md §Memory).
 */
export const PRINT_AFTER = 64;
let unprinted = 0;

// the schema's patterns, as its generated validator compiles them (flag `u`)
const TYPE =
  /^((agent|session|run|progress|tool|delegation|attention|resource|error|state|assessment|message|control)(\.[a-z0-9_]+)+|x\.[a-z0-9_-]+\.[a-z0-9_]+(\.[a-z0-9_]+)+)$/u;
const AGENT = /^(x\.[a-z0-9_-]+\.)?agent\./u;
const FOREIGN =
  /^(control\.(attention\.respond|cancel|pause|resume)|attention\.routed|x\.[a-z0-9_-]+\.control(\.[a-z0-9_]+)+)$/u;
const MEMBER = /^[a-z0-9]{1,20}$/u;
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/u;
const isDateTime = MEMO_FORMATS['date-time'];
const isUri = MEMO_FORMATS.uri;

// scheme ":" *( unreserved / "/" ) (RFC 3986 §3.1, §2.3)
const PLAIN_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9._~/-]*$/;

/** True for `scheme ":" *( unreserved / "/" )`, always an RFC 3986 §3 URI; false sends it to the URI grammar. */
export function plainUri(s: string): boolean {
  return PLAIN_URI.test(s);
}

/** The `allOf` branch a type falls in: no valid type, category `agent` (`agent.*`, `x.{vendor}.agent.*`), a foreign command or routing, or session-scoped. */
const Scope = { Invalid: 0, Agent: 1, Foreign: 2, Session: 3 } as const;
/** An `allOf` branch (see {@link Scope}). */
export type EnvelopeBranch = (typeof Scope)[keyof typeof Scope];

/** The `allOf` branch of type `t` ({@link envelopeSurelyValid}'s `branch`; kept per type by type-info.ts). */
export const typeBranch = (t: string): EnvelopeBranch =>
  !TYPE.test(t) ? Scope.Invalid : AGENT.test(t) ? Scope.Agent : FOREIGN.test(t) ? Scope.Foreign : Scope.Session;
// at most 1024 type names (types recur on every event)
const scopes = new TextMemo<EnvelopeBranch>(1024);
const scopeOfType = (t: string): EnvelopeBranch => scopes.of(t, typeBranch);

const nonEmpty = (x: unknown): boolean => typeof x === 'string' && x !== '';
const count = (x: unknown): boolean => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** Bits of the required members (`aep`, `id`, `type`, `time`, `source`, `agent`) and of those the `allOf` reads. */
const REQUIRED = 63;
const SESSION = 64;
const SEQ = 128;
const RUN_OR_STEP = 256;

// The members of the last envelope passed that envelope-members.ts `screened` names (`subject`, the extension
// attributes) and their values, in member order: the content screen reads only these (most envelopes have none).
// Kept in place with a count: resetting an array's length is a runtime call, a keyed read of the event megamorphic.
let passed: object | undefined;
let screenedCount = 0;
const screenedNames: string[] = [];
const screenedValues: unknown[] = [];

/** What {@link screenedMembersOf} answers: the first `count` names and values are current. */
export interface ScreenedMembers {
  readonly count: number;
  readonly names: readonly string[];
  readonly values: readonly unknown[];
}

const screenedOut = {
  count: 0,
  names: screenedNames as readonly string[],
  values: screenedValues as readonly unknown[],
};

/**
 * The members of `v` that src/aep/envelope-members.ts `screened` names, in member order, with their values, when `v` is
 * the envelope {@link envelopeSurelyValid} last passed (read there as it walked them); else `undefined`. The answer is
 * shared: read it before the next envelope is checked.
 */
export function screenedMembersOf(v: object): ScreenedMembers | undefined {
  if (v !== passed) return undefined;
  screenedOut.count = screenedCount;
  return screenedOut;
}

function keepScreened(k: string, x: unknown): void {
  screenedNames[screenedCount] = k;
  screenedValues[screenedCount++] = x;
}

/**
 * True when `v` is surely a valid AEP envelope (a common shape, every member checked as the schema states); false when
 * the generated validator must decide. `branch`: {@link typeBranch} of `v.type` when the caller has it.
 */
export function envelopeSurelyValid(v: unknown, branch?: EnvelopeBranch): boolean {
  if (on !== true && (on === false || ++unprinted <= PRINT_AFTER || !envelopeFastOn())) return false;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  passed = undefined;
  screenedCount = 0;
  let seen = 0;
  let scope: EnvelopeBranch = Scope.Invalid;
  for (const k in o) {
    const x = o[k];
    switch (k) {
      case 'aep':
        if (x !== '0.1') return false;
        seen |= 1;
        break;
      case 'id':
        if (!nonEmpty(x)) return false;
        seen |= 2;
        break;
      case 'type':
        if (typeof x !== 'string' || (scope = branch ?? scopeOfType(x)) === Scope.Invalid) return false;
        seen |= 4;
        break;
      case 'time':
        if (typeof x !== 'string' || !isDateTime(x)) return false;
        seen |= 8;
        break;
      case 'source':
        if (!nonEmpty(x) || !(plainUri(x as string) || isUri(x as string))) return false;
        seen |= 16;
        break;
      case 'agent':
        if (!nonEmpty(x)) return false;
        seen |= 32;
        break;
      case 'session':
        if (!nonEmpty(x)) return false;
        seen |= SESSION;
        break;
      case 'run':
      case 'step':
        if (!nonEmpty(x)) return false;
        seen |= RUN_OR_STEP;
        break;
      case 'subject':
        if (!nonEmpty(x)) return false;
        keepScreened(k, x);
        break;
      case 'cause':
        if (!nonEmpty(x)) return false;
        break;
      case 'seq':
        if (!count(x)) return false;
        seen |= SEQ;
        break;
      case 'epoch':
        if (!count(x)) return false;
        break;
      case 'traceparent':
        if (typeof x !== 'string' || !TRACEPARENT.test(x)) return false;
        break;
      case 'severity':
        if (x !== 'info' && x !== 'notice' && x !== 'warning' && x !== 'error' && x !== 'debug' && x !== 'critical')
          return false;
        break;
      case 'capture':
        if (x !== 'metadata' && x !== 'redacted' && x !== 'full' && x !== 'none') return false;
        break;
      case 'data':
        if (x === null || typeof x !== 'object' || Array.isArray(x)) return false;
        break;
      default:
        // an extension attribute (AEP-0001 §6.2): a lowercase alphanumeric name, a string, integer or boolean value
        if (!MEMBER.test(k)) return false;
        if (typeof x !== 'string' && typeof x !== 'boolean' && !(typeof x === 'number' && Number.isSafeInteger(x)))
          return false;
        keepScreened(k, x);
    }
  }
  if ((seen & REQUIRED) !== REQUIRED) return false;
  let valid: boolean;
  switch (scope) {
    case Scope.Agent:
      valid = (seen & (SESSION | SEQ | RUN_OR_STEP)) === 0;
      break;
    case Scope.Foreign:
      valid = (seen & SESSION) !== 0 && (seen & SEQ) === 0;
      break;
    default:
      valid = (seen & (SESSION | SEQ)) === (SESSION | SEQ);
  }
  if (valid) passed = o;
  return valid;
}
