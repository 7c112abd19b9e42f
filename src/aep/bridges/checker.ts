import type { FindingSink } from '../../core/finding.ts';
import { locateIndex } from '../../core/json.ts';
import { framingFinding, type FramingSpecs } from '../../core/jsonl.ts';
import { type ProtocolChecker, type RunStats, setAside } from '../../core/pipeline.ts';
import { isObj } from '../../core/value.ts';
import { eventLocation, makeFinding, type ParsedEvent } from '../../core/rule.ts';
import { serializeEvent } from '../../core/serialize.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import { decodeCloudEvents } from './cloudevents.ts';
import { decodeOcsf } from './ocsf.ts';
import { decodeOtlp } from './otlp-decode.ts';
import { otlpLiterals } from './numbers.ts';
import { BRIDGE_INPUT_RULE, bridgeRule } from './rules.ts';
import { BRIDGE_NAMES, bridgeFormatOf, isAepEvent, isJsonRpc, type BridgeFrom } from './hint.ts';
import type { DecodedEvent } from './types.ts';

export type { BridgeFrom } from './hint.ts';

/** The framing citations of each bridge input (stamped by the run): its own format's duplicate rule. */
export const BRIDGE_FRAMING_SPECS: Readonly<Record<BridgeFrom, FramingSpecs>> = {
  cloudevents: { 'json/duplicate-key': 'CloudEvents 1.0 §3.1 (an attribute appears at most once); RFC 8259 §4' },
  otlp: { 'json/duplicate-key': 'OTLP/JSON; RFC 8259 §4' },
  ocsf: { 'json/duplicate-key': 'AEP-0005 §4.3; RFC 8259 §4' },
};

/**
 * The AEP rules that judge one member's presence or value: silent for a member the bridge refused with a finding
 * of its own (an OTLP member it could not read, a CE attribute B2 copies verbatim), one fault, one finding.
 */
const MEMBER_RULES: ReadonlySet<string> = new Set([
  'aep/envelope-required',
  'aep/scope-session',
  'aep/attribute-type',
  'aep/time-format',
  'aep/source-uri',
]);

/**
 * The checker of `aep validate --from`: decodes each value, reports bridge issues, and moves the findings of the AEP
 * checker on each mapped event back into the input. `maxCapture`: the OTLP exporter's ceiling (AEP-0005 §3.3).
 */
export function bridgeChecker(
  from: BridgeFrom,
  maxCapture: AepCaptureLevel,
  makeInner: (sink: FindingSink) => ProtocolChecker,
  sink: FindingSink,
  stats?: RunStats,
): ProtocolChecker {
  let orig: ParsedEvent | undefined;
  let decoded: DecodedEvent | undefined;
  // a finding the inner checker reports at the event being checked is moved into the input;
  // others (end of stream, an earlier line) pass as they are: their marks are line starts
  const inner = makeInner((f) => {
    if (!orig || !decoded || f.source !== orig.source || f.line !== orig.line) return sink(f);
    // a member the bridge refused (its finding made) is not judged again: one fault, one finding
    const at = f.pointer ?? '';
    if (MEMBER_RULES.has(f.ruleId) && (decoded.refused?.has(at) || decoded.told?.get(at)?.has(f.ruleId))) return;
    const pointer = decoded.pointerOf(f.pointer ?? '');
    const loc = eventLocation(orig, pointer);
    sink({ ...f, line: loc.line, column: loc.column, byteOffset: loc.byteOffset, pointer });
  });
  let toldAep = false;
  let toldOther = false;
  let toldAhp = false;
  return {
    onEvent(ev) {
      const value: unknown = ev.value;
      // plain AEP JSONL given --from: one finding, not every bridge rule on every line (issue 37 item 4e)
      if (isAepEvent(value)) {
        setAside(stats);
        if (toldAep) return;
        toldAep = true;
        sink(
          makeFinding(
            BRIDGE_INPUT_RULE,
            { pointer: '', messageId: 'aep', args: { format: BRIDGE_NAMES[from], from } },
            ev,
          ),
        );
        return;
      }
      // another bridge's output given the wrong --from: one finding naming the right one
      const other = bridgeFormatOf(value);
      if (other !== undefined && other !== from) {
        setAside(stats);
        if (toldOther) return;
        toldOther = true;
        const args = {
          format: BRIDGE_NAMES[other],
          from: other,
          given: `${BRIDGE_NAMES[from]} output`,
          givenFrom: from,
        };
        sink(makeFinding(BRIDGE_INPUT_RULE, { pointer: '', messageId: 'other', args }, ev));
        return;
      }
      // an AHP message: one finding naming `ahp validate`, as without --from, not every bridge rule on every line
      if (other === undefined && isJsonRpc(value)) {
        setAside(stats);
        if (toldAhp) return;
        toldAhp = true;
        sink(makeFinding(BRIDGE_INPUT_RULE, { pointer: '', messageId: 'ahp' }, ev));
        return;
      }
      // the run counts one event per value; a batch or a request holds one per item or LogRecord (issue 37 item 4c),
      // and a request with no LogRecord, or an empty batch (`[]`, JSON format §4.3), holds none (convert writes none;
      // new-user trial 9, trial 15)
      const request =
        from === 'otlp'
          ? isObj(value) && (Array.isArray(value.resourceLogs) || value.resourceLogs === null || isEmpty(value))
          : Array.isArray(value);
      if (stats) stats.events += itemCount(from, value, request ? 0 : 1) - 1;
      const res =
        from === 'cloudevents'
          ? decodeCloudEvents(value, { bigIntegers: ev.bigIntegers, text: ev.text })
          : from === 'ocsf'
            ? decodeOcsf(value, { maxCapture })
            : decodeOtlp(value, { maxCapture, bigIntegers: otlpLiterals(ev) });
      for (const i of res.issues)
        sink(makeFinding(bridgeRule(i.ruleId), { pointer: i.pointer, messageId: i.messageId, args: i.args }, ev));
      // a repeated member: which copy counts is undefined, so the record holding it is not mapped
      const dups = ev.duplicates.map((d) => d.pointer);
      for (const d of ev.duplicates)
        sink(
          framingFinding('json/duplicate-key', eventLocation(ev, d.pointer), 'bridge', {
            key: d.key.slice(0, 60),
            holder: from === 'cloudevents' ? 'CloudEvent' : 'record',
          }),
        );
      const outside = dups.some((p) => !res.events.some((d) => d.base === '' || p.startsWith(d.base + '/')));
      for (const d of res.events) {
        if (outside || dups.some((p) => d.base === '' || p.startsWith(d.base + '/'))) continue;
        const text = serializeEvent(d.event, d.bigIntegers);
        const pe: ParsedEvent & Pick<DecodedEvent, 'withheld'> = {
          source: ev.source,
          line: ev.line,
          byteOffset: ev.byteOffset,
          text,
          value: d.event,
          duplicates: [],
          bigIntegers: (d.bigIntegers ?? []).map((b) => ({ ...b, index: locateIndex(text, b.pointer) ?? 0 })),
          ...(d.withheld ? { withheld: d.withheld } : {}),
        };
        orig = ev;
        decoded = d;
        try {
          inner.onEvent(pe);
        } finally {
          orig = decoded = undefined;
        }
      }
    },
    onUnreadable(at) {
      inner.onUnreadable?.(at);
    },
    end() {
      inner.end();
    },
  };
}

/** The events a bridge value holds: the items of a CloudEvents or OCSF batch, the LogRecords of an OTLP request (at least `least`). */
export function itemCount(from: BridgeFrom, value: unknown, least = 1): number {
  if (from !== 'otlp') return Array.isArray(value) ? Math.max(value.length, least) : 1;
  let n = 0;
  const list = (o: unknown, k: string): unknown[] => (isObj(o) && Array.isArray(o[k]) ? (o[k] as unknown[]) : []);
  for (const rl of list(value, 'resourceLogs'))
    for (const sl of list(rl, 'scopeLogs')) n += list(sl, 'logRecords').length;
  return Math.max(n, least);
}

/** Whether `v` is an object with no member: the empty OTLP request of the proto3 JSON mapping. */
function isEmpty(v: Record<string, unknown>): boolean {
  return Object.keys(v).length === 0;
}
