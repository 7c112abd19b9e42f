import type { FindingSink } from '../../core/finding.ts';
import { locateIndex } from '../../core/json.ts';
import { JSONL_RULES } from '../../core/jsonl.ts';
import type { ProtocolChecker } from '../../core/pipeline.ts';
import { eventLocation, makeFinding, type ParsedEvent, type RuleMeta } from '../../core/rule.ts';
import { serializeEvent } from '../../core/serialize.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import { decodeCloudEvents } from './cloudevents.ts';
import { decodeOtlp } from './otlp-decode.ts';
import { bridgeRule } from './rules.ts';
import type { DecodedEvent } from './types.ts';

/** The bridge input formats `--from` names. */
export type BridgeFrom = 'cloudevents' | 'otlp';

const DUPLICATE_KEY = JSONL_RULES.find((r) => r.id === 'json/duplicate-key')!;

/** `json/duplicate-key` in bridge input, cited from the bridge's format: the record holding it is not mapped. */
const DUPLICATE: Readonly<Record<BridgeFrom, RuleMeta>> = {
  cloudevents: {
    ...DUPLICATE_KEY,
    spec: 'CloudEvents 1.0 §3.1 (an attribute appears at most once); RFC 8259 §4',
    messages: {
      member:
        'Member "{member}" appears more than once in the same object; which one counts is undefined, so the CloudEvent holding it is not checked as AEP.',
    },
  },
  otlp: {
    ...DUPLICATE_KEY,
    spec: 'OTLP/JSON; RFC 8259 §4',
    messages: {
      member:
        'Member "{member}" appears more than once in the same object; which one counts is undefined, so the record holding it is not checked as AEP.',
    },
  },
};

/**
 * The checker of `aep validate --from`: decodes each input value, reports the bridge issues, and
 * hands every AEP event it maps back to the AEP checker `makeInner` builds, whose findings are
 * moved back to their place in the input. `maxCapture` is the OTLP exporter's ceiling (AEP-0005 §3.3).
 */
export function bridgeChecker(
  from: BridgeFrom,
  maxCapture: AepCaptureLevel,
  makeInner: (sink: FindingSink) => ProtocolChecker,
  sink: FindingSink,
): ProtocolChecker {
  let orig: ParsedEvent | undefined;
  let decoded: DecodedEvent | undefined;
  // a finding the inner checker reports at the event being checked is moved into the input;
  // others (end of stream, an earlier line) pass as they are: their marks are line starts
  const inner = makeInner((f) => {
    if (!orig || !decoded || f.source !== orig.source || f.line !== orig.line) return sink(f);
    const pointer = decoded.pointerOf(f.pointer ?? '');
    const loc = eventLocation(orig, pointer);
    sink({ ...f, line: loc.line, column: loc.column, byteOffset: loc.byteOffset, pointer });
  });
  return {
    onEvent(ev) {
      const value: unknown = ev.value;
      const res =
        from === 'cloudevents'
          ? decodeCloudEvents(value, { bigIntegers: ev.bigIntegers })
          : decodeOtlp(value, { maxCapture, bigIntegers: ev.bigIntegers });
      for (const i of res.issues)
        sink(makeFinding(bridgeRule(i.ruleId), { pointer: i.pointer, messageId: i.messageId, args: i.args }, ev));
      // a repeated member: which copy counts is undefined, so the record holding it is not mapped
      const dups = ev.duplicates.map((d) => d.pointer);
      for (const d of ev.duplicates)
        sink(makeFinding(DUPLICATE[from], { at: eventLocation(ev, d.pointer), args: { member: d.key.slice(0, 60) } }));
      const outside = dups.some((p) => !res.events.some((d) => d.base === '' || p.startsWith(d.base + '/')));
      for (const d of res.events) {
        if (outside || dups.some((p) => d.base === '' || p.startsWith(d.base + '/'))) continue;
        const text = serializeEvent(d.event, d.bigIntegers);
        const pe: ParsedEvent = {
          source: ev.source,
          line: ev.line,
          byteOffset: ev.byteOffset,
          text,
          value: d.event,
          duplicates: [],
          bigIntegers: (d.bigIntegers ?? []).map((b) => ({ ...b, index: locateIndex(text, b.pointer) ?? 0 })),
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
    end() {
      inner.end();
    },
  };
}
