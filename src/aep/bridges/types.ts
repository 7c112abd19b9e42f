/** Shared shapes of the AEP-0005 bridges: what a decoder returns, and the AEP attribute vocabulary. */
import type { BigIntegerLiteral } from '../../core/json.ts';
import type { MessageArgs } from '../../core/message.ts';

/** One problem found in a bridge input: the rule, an RFC 6901 pointer into the input value, its template and arguments. */
export interface BridgeIssue {
  ruleId: string;
  pointer: string;
  /** Key of the rule's template (src/aep/bridges/rules.ts; `bridgeIssueMessage` renders it). */
  messageId: string;
  args: MessageArgs;
}

/** One AEP event recovered from a bridge input. */
export interface DecodedEvent {
  event: Record<string, unknown>;
  /** Pointer of the record (the CE object, the LogRecord) in the input value. */
  base: string;
  /** The input pointer for a pointer in {@link event}: best effort, else {@link base}. */
  pointerOf(aepPointer: string): string;
  /** Integers of the event beyond 2^53, with their exact text (pointers in {@link event}). */
  bigIntegers?: BigIntegerLiteral[];
  /**
   * Pointers of envelope members the input holds but the bridge refused with a finding of its own (an OTLP
   * `aep.sequence` that is no int64, a `timeUnixNano` that is no fixed64): the
   * AEP rules on one member's presence or value do not judge them again.
   */
  refused?: ReadonlySet<string>;
  /**
   * Per pointer, the AEP rules whose fault the bridge already reported there (a CE `source` that is an empty string:
   * `aep/attribute-type` and `aep/source-uri`); other AEP rules still judge the member (CE `source` with a control
   * character that is no URI without it either: `aep/source-uri` too).
   */
  told?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The envelope's capture when the bridge withheld the payload at its ceiling (AEP-0005 §3.3, §4.6). */
  withheld?: 'metadata' | 'redacted' | 'full';
}

/** The outcome of decoding one bridge input value. */
export interface DecodeResult {
  events: DecodedEvent[];
  issues: BridgeIssue[];
}

/** Every AEP core attribute name (AEP-0001 §5.1), in the envelope's member order. */
export const AEP_CORE_ATTRIBUTES: readonly string[] = [
  'aep',
  'id',
  'type',
  'subject',
  'time',
  'source',
  'agent',
  'session',
  'run',
  'step',
  'seq',
  'epoch',
  'cause',
  'severity',
  'capture',
  'traceparent',
  'data',
];

/** The envelope attributes (every core attribute but `data`), in the envelope's member order. */
export const AEP_ENVELOPE_ORDER: readonly string[] = AEP_CORE_ATTRIBUTES.filter((k) => k !== 'data');

const CORE = new Set(AEP_CORE_ATTRIBUTES);

/** True when `name` is a legal AEP extension attribute name (AEP-0001 §5.4: `[a-z0-9]{1,20}`, never a core name). */
export function isAepExtensionName(name: string): boolean {
  return /^[a-z0-9]{1,20}$/.test(name) && !CORE.has(name);
}

/** True when `name` is an AEP core attribute name. */
export function isAepCoreAttribute(name: string): boolean {
  return CORE.has(name);
}

/** The frozen type root of the CE and OTLP bridges (AEP-0005 §1 B3, §3.2). */
export const AEP_TYPE_ROOT = 'dev.aep.';

/** The six AEP severity levels in their AEP-0001 §8.1 order. */
export const AEP_SEVERITIES = ['debug', 'info', 'notice', 'warning', 'error', 'critical'] as const;

/** An AEP severity level. */
export type AepSeverity = (typeof AEP_SEVERITIES)[number];

/** The JSON type of `v` in a few words (messages never echo values). */
export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number')
    return Number.isInteger(v)
      ? 'an integer'
      : Number.isFinite(v)
        ? 'a number with a fraction'
        : 'a number beyond the double range';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
