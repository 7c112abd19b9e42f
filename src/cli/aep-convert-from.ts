/** `aep convert --from cloudevents|otlp`: the inverse mappings (AEP-0005 §2 rule 1, §3.2, §3.4) as AEP JSONL. */
import { decodeCloudEvents } from '../aep/bridges/cloudevents.ts';
import { itemCount } from '../aep/bridges/checker.ts';
import { BRIDGE_NAMES, bridgeFormatOf, isAepEvent, isJsonRpc, type BridgeFrom } from '../aep/bridges/hint.ts';
import { decodeOtlp } from '../aep/bridges/otlp-decode.ts';
import { otlpLiterals } from '../aep/bridges/numbers.ts';
import type { AepCaptureLevel } from '../aep/schema/registry.ts';
import { serializeEvent } from '../core/serialize.ts';
import { exactText, type AepFilterOptions, type EventTransform } from '../run/aep-filter.ts';
import type { CliIO } from './common.ts';

/** The capture verbs' filter runner (aep-bridges.ts `RunFilter`, not imported: that module imports this one). */
type Runner = (
  verb: 'convert',
  files: string[],
  transform: EventTransform,
  io: CliIO,
  filter: AepFilterOptions,
  output?: string,
  deferClosing?: boolean,
) => Promise<{
  code: number;
  empty: boolean;
  stopped?: boolean;
  closing?: string;
  writeFailed?: boolean;
  unread?: boolean;
}>;

/** The bridge formats `convert --from` reads: OCSF has none (AEP-0005 §4.4, "there is no OCSF-inbound direction"). */
export const CONVERT_FROM = ['cloudevents', 'otlp'] as const;

/** Options of {@link runConvertFrom}. */
export interface ConvertFromOptions {
  from: (typeof CONVERT_FROM)[number];
  /** The OTLP exporter's ceiling (AEP-0005 §3.3): a record above it maps back without a payload, at capture none. */
  maxCapture: AepCaptureLevel;
  profile?: string;
  output?: string;
}

/** Run `convert --from`; its exit code. */
export async function runConvertFrom(
  files: string[],
  o: ConvertFromOptions,
  io: CliIO,
  runFilter: Runner,
): Promise<number> {
  let events = 0;
  let foreign = 0;
  let withheld = 0;
  // lines set aside unchecked (aep/bridge-input names the first of each kind): plain AEP, or another bridge's output
  let plain = 0;
  let ahp = 0;
  const other = new Map<string, number>();
  const transform: EventTransform = (ev) => {
    if (isAepEvent(ev.value)) {
      plain++;
      return null;
    }
    const format = bridgeFormatOf(ev.value);
    if (format !== undefined && format !== o.from) {
      other.set(format, (other.get(format) ?? 0) + 1);
      return null;
    }
    if (format === undefined && isJsonRpc(ev.value)) {
      ahp++;
      return null;
    }
    const r =
      o.from === 'cloudevents'
        ? decodeCloudEvents(ev.value, { bigIntegers: ev.bigIntegers, text: ev.text })
        : decodeOtlp(ev.value, { maxCapture: o.maxCapture, bigIntegers: otlpLiterals(ev) });
    // a foreign CloudEvent or LogRecord (§2 rule 3) has no AEP event: reported (a warning), counted, not written
    foreign += itemCount(o.from, ev.value, 0) - r.events.length;
    if (r.events.length === 0) return null;
    events += r.events.length;
    withheld += r.events.filter((d) => d.withheld).length;
    return exactText(r.events.map((d) => serializeEvent(d.event, d.bigIntegers)).join('\n'));
  };
  const { code, empty, stopped, closing, writeFailed, unread } = await runFilter(
    'convert',
    files,
    transform,
    io,
    // every rule `validate --from` runs, the leak and stream rules included (AEP-0003 §9 item 4)
    { from: o.from, maxCapture: o.maxCapture, allRules: true, ...(o.profile ? { profile: o.profile } : {}) },
    o.output,
    // one closing sentence: the filter's count of lines not written joins this verb's own
    true,
  );
  const s = (n: number) => (n === 1 ? '' : 's');
  const parts = [`${events} AEP event${s(events)} written from ${o.from}`];
  if (closing) parts.push(closing);
  if (foreign) parts.push(`${foreign} foreign record${s(foreign)} not written (not AEP, AEP-0005 §2 rule 3, §3.2)`);
  // the first such line has its error finding above, counted among the lines with error findings
  const name = BRIDGE_NAMES[o.from];
  if (plain)
    parts.push(
      `${plain} more plain AEP line${s(plain)} not written (not ${name} output: drop \`--from ${o.from}\` to read AEP JSONL)`,
    );
  for (const [f, n] of other)
    parts.push(
      `${n} more line${s(n)} of ${BRIDGE_NAMES[f as BridgeFrom]} output not written (not ${name} output: see aep/bridge-input above)`,
    );
  if (ahp)
    parts.push(`${ahp} more AHP line${s(ahp)} not written (JSON-RPC messages: check them with \`ahp validate\`)`);
  if (o.from === 'otlp')
    parts.push(`${withheld} with the payload withheld at max capture ${o.maxCapture} (written at capture none)`);
  // with no event, the line still counts what the lines were (plain AEP, another format): README §CloudEvents
  if (!empty && !stopped && !writeFailed && !unread && !io.writeFailed?.())
    io.stderr.write(`aep convert: ${parts.join('; ')}\n`);
  return code;
}
