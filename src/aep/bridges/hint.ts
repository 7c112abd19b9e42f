/**
 * Bridge output read without `--from` (issue 37 item 4e): which `--from` reads it, as AHP names the `--binding`
 * (src/ahp/binding-hint.ts).
 */
import { prettyObjects } from '../../core/pretty-values.ts';
import { isObj } from '../../core/value.ts';
import { kindOf } from './types.ts';

/** The bridge input formats `--from` names. */
export type BridgeFrom = 'cloudevents' | 'otlp' | 'ocsf';

/** The bridge format a JSON value is the output of, or `undefined` (an AEP event, or anything else). */
export function bridgeFormatOf(v: unknown): BridgeFrom | undefined {
  const one = (x: unknown): BridgeFrom | undefined =>
    !isObj(x) || x.aep !== undefined
      ? undefined
      : typeof x.specversion === 'string'
        ? 'cloudevents'
        : Array.isArray(x.resourceLogs)
          ? 'otlp'
          : typeof x.class_uid === 'number' && isObj(x.unmapped)
            ? 'ocsf'
            : undefined;
  if (Array.isArray(v)) {
    const f = v.length > 0 ? one(v[0]) : undefined;
    // a batch: a CloudEvents batch, or an array of OCSF records
    return f !== 'otlp' && v.every((x) => one(x) === f) ? f : undefined;
  }
  return one(v);
}

/** True when `v` is a plain AEP event (an `aep` version and a `type`), not the output of any bridge. */
export function isAepEvent(v: unknown): boolean {
  return (
    isObj(v) &&
    typeof v.aep === 'string' &&
    typeof v.type === 'string' &&
    bridgeFormatOf({ ...v, aep: undefined }) === undefined
  );
}

/** True for a JSON-RPC 2.0 message with no `aep` member: an AHP wire message, not an AEP event. */
export function isJsonRpc(v: unknown): boolean {
  return isObj(v) && v.jsonrpc === '2.0' && v.aep === undefined;
}

/**
 * The major version of an AEP event's `aep` when it is one this checker does not read (not 0: it reads 0.1), else
 * `undefined`. A reader skips such a line and reports it once (AEP-0003 §3.1 #3).
 */
export function unsupportedMajor(v: unknown): string | undefined {
  if (!isObj(v) || typeof v.aep !== 'string') return undefined;
  const m = /^(\d+)(?:\.|$)/.exec(v.aep);
  return m && Number(m[1]) !== 0 ? m[1] : undefined;
}

/**
 * True for a line the AEP checker sets aside unchecked: bridge output or an AHP message (`aep/bridge-input`), or an
 * event of an unsupported major version (`aep/version`, reported once).
 */
export function isSetAside(v: unknown): boolean {
  return bridgeFormatOf(v) !== undefined || isJsonRpc(v) || unsupportedMajor(v) !== undefined;
}

/**
 * Why `v` is no AEP event to capture or bridge (what `aep/bridge-input` sets aside: bridge output, an AHP message), as
 * "the event is ..." ends, or `undefined`. The library's capture and bridge functions refuse such a value, as the
 * commands refuse such a line: no capture annotation says what of it a level may carry (AEP-0001 §8.2).
 */
export function notAnAepEvent(v: unknown): string | undefined {
  const f = bridgeFormatOf(v);
  if (f !== undefined) return `${BRIDGE_NAMES[f]} output of the AEP-0005 bridge, not an AEP event (aep/bridge-input)`;
  return isJsonRpc(v) ? 'a JSON-RPC message (AHP), not an AEP event (aep/bridge-input)' : undefined;
}

/** @throws TypeError when `v` is no object, or bridge output or an AHP message ({@link notAnAepEvent}), naming which. */
export function assertAepEvent(v: unknown): void {
  // a library caller's null or array: a sentence, not a property read of null
  if (!isObj(v)) throw new TypeError(`the event must be an object, not ${kindOf(v)}`);
  const not = notAnAepEvent(v);
  if (not !== undefined) throw new TypeError(`the event is ${not}`);
}

/** What each `--from` reads, as messages name it. */
export const BRIDGE_NAMES: Readonly<Record<BridgeFrom, string>> = {
  cloudevents: 'CloudEvents',
  otlp: 'OTLP/JSON',
  ocsf: 'OCSF',
};
const NAME = BRIDGE_NAMES;

/** The sentence for a JSONL input none of whose lines parse, when the whole text is one pretty-printed bridge value. */
export function bridgeHint(text: string, from: string | undefined): string | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '').length;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    // several AEP events pretty-printed one after another (`jq . log.jsonl`), else one bridge value per line that is
    // not an object (CloudEvents batches) read without --from
    const events = prettyEvents(text);
    if (events !== undefined) return eventsHint(lines, events, from);
    return from === undefined ? linesHint(text) : undefined;
  }
  // one line that parses whole: a single batch line read without --from
  if (lines < 2) return from === undefined ? linesHint(text) : undefined;
  const f = bridgeFormatOf(v);
  if (f === undefined) {
    // one AEP event (or an array of them) pretty-printed: JSONL holds one event per line
    const aep = isAepEvent(v) || (Array.isArray(v) && v.length > 0 && v.every(isAepEvent));
    if (!aep) return undefined;
    const what = Array.isArray(v)
      ? `a pretty-printed JSON array of ${v.length} AEP events`
      : 'one pretty-printed AEP event';
    return from === undefined
      ? `The ${lines} lines are ${what}: AEP JSONL holds one event per line (the other lines are not reported one by one).`
      : `The ${lines} lines are ${what}, not ${NAME[from as BridgeFrom] ?? from} output of the AEP-0005 bridge: drop \`--from ${from}\` (library: \`from\`) and write one event per line (the other lines are not reported one by one).`;
  }
  return from === f
    ? `The ${lines} lines are one pretty-printed ${NAME[f]} document: give it as a .json file (read as one document with \`--from ${f}\`, library: \`from: '${f}'\`) or write one value per line (the other lines are not reported one by one).`
    : `The ${lines} lines are one pretty-printed ${NAME[f]} document: read it with \`--from ${f}\` (library: \`from: '${f}'\`) from a .json file, or one value per line (the other lines are not reported one by one).`;
}

/** The sentence for JSON lines that are all bridge values of one format (CloudEvents batches), else `undefined`. */
function linesHint(text: string): string | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let format: BridgeFrom | undefined;
  for (const l of lines) {
    let f: BridgeFrom | undefined;
    try {
      f = bridgeFormatOf(JSON.parse(l));
    } catch {
      return undefined;
    }
    if (f === undefined || (format !== undefined && f !== format)) return undefined;
    format = f;
  }
  return format === undefined
    ? undefined
    : `Every line (${lines.length}) holds ${NAME[format]} output of the AEP-0005 bridge: read the input with \`--from ${format}\` (library: \`from: '${format}'\`; the other lines are not reported one by one).`;
}

/** The sentence for `count` AEP events pretty-printed one after another over `lines` lines. */
function eventsHint(lines: number, count: number, from: string | undefined): string {
  const what = `${count} pretty-printed AEP events`;
  return from === undefined
    ? `The ${lines} lines are ${what}: AEP JSONL holds one event per line (\`jq -c\` writes them so; the other lines are not reported one by one).`
    : `The ${lines} lines are ${what}, not ${NAME[from as BridgeFrom] ?? from} output of the AEP-0005 bridge: drop \`--from ${from}\` (library: \`from\`) and write one event per line (the other lines are not reported one by one).`;
}

/** How many AEP events `text` is when it is several pretty-printed one after another, each a plain AEP event. */
function prettyEvents(text: string): number | undefined {
  const parts = prettyObjects(text);
  return parts?.every(isAepEvent) ? parts.length : undefined;
}
