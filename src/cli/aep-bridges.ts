/**
 * `aep convert --to` (the AEP-0005 projections; lines with an error finding are not converted) and what the stream
 * verbs share: `-o`, `--profile`, opening the inputs.
 */
import { EXIT } from '../core/exit.ts';
import { Option, type Command } from 'commander';
import { ceRefusal, toCloudEvent } from '../aep/bridges/cloudevents.ts';
import { numberLiterals } from '../aep/bridges/numbers.ts';
import { AEP_0007 } from '../aep/subprofile.ts';
import { toOcsf } from '../aep/bridges/ocsf.ts';
import { toOtlp, type OtlpCounts } from '../aep/bridges/otlp.ts';
import { downlevelStream } from '../aep/downlevel.ts';
import { aepRules } from '../aep/protocol.ts';
import type { AepCaptureLevel } from '../aep/schema/registry.ts';
import type { InputSpec } from '../core/pipeline.ts';
import { createReporter } from '../report/index.ts';
import type { Reporter } from '../report/types.ts';
import type { Finding } from '../core/finding.ts';
import { exactText, refuse, type AepFilterOptions, type EventTransform } from '../run/aep-filter.ts';
import { changedNumbers, serializeEvent } from '../core/serialize.ts';
import { CE_ATTRIBUTE_TABLE } from '../aep/bridges/cloudevents.ts';
import { escapeToken } from '../core/pointer.ts';
import { openInputs, VERSION, type CliIO } from './common.ts';
import { countLineDue, type StreamVerb } from './closing.ts';
import { CONVERT_FROM, runConvertFrom } from './aep-convert-from.ts';

/** `-o FILE` of the verbs that write a stream. */
export const OUTPUT_OPTION = [
  '-o, --output <file>',
  'write the JSONL to FILE instead of standard output (-: standard output; a file is replaced only when the run ends; a link is followed, a device or FIFO written through)',
] as const;

/** `--profile` of the stream verbs: a sub-profile's types are accepted, as `validate --profile` accepts them. */
export const PROFILE_OPTION = (): Option =>
  new Option(
    '--profile <name>',
    'also accept a sub-profile beyond the AEP 0.1 registry, its types handled by its capture annotations: aep-0007 (AEP-0007 §4, the message and stream types)',
  ).choices([AEP_0007]);

/** The stream verbs that run the checks and a transform ({@link RunFilter}); `filter` only selects. */
export type TransformVerb = Exclude<StreamVerb, 'filter'>;

/** The capture verbs' filter runner (src/cli/aep-capture.ts), passed in to keep one copy. */
export type RunFilter = (
  verb: TransformVerb,
  files: string[],
  transform: EventTransform,
  io: CliIO,
  filter?: AepFilterOptions,
  output?: string,
  deferClosing?: boolean,
) => Promise<FilterExit>;

/** A stream verb's JSONL inputs and stderr reporter; `undefined` (said on stderr) when an input cannot be opened. */
export function openStreamVerb(
  files: string[],
  io: CliIO,
  framing: (p: string) => 'jsonl' | 'document' = () => 'jsonl',
): { inputs: InputSpec[]; reporter: Reporter } | undefined {
  let inputs: InputSpec[];
  try {
    inputs = openInputs(files, io, framing);
  } catch (e) {
    io.stderr.write(`aep: ${(e as Error).message}\n`);
    return undefined;
  }
  // waiting on a terminal for typed input looks like a hang: say what it waits for (as `validate` does)
  if (io.stdinIsTTY && inputs.some((i) => i.source === '<stdin>'))
    io.stderr.write('aep: reading standard input (end it with Ctrl-D; name files to read them instead)\n');
  const reporter = createReporter('text', io.stderr, {
    protocol: 'aep',
    version: VERSION,
    color: false,
    quiet: true,
    failOn: 'error',
    rules: aepRules(),
    sources: inputs.map((i) => i.source),
  });
  return { inputs, reporter };
}

/**
 * The run's empty-input finding (no line at all) marks `seen.empty`, a protobuf one `seen.protobuf`; every finding goes
 * on to `reporter`.
 */
export function noteEmpty(reporter: Reporter, seen: { empty: boolean; protobuf?: boolean }): (f: Finding) => void {
  return (f) => {
    if (f.ruleId === 'jsonl/empty-input') seen.empty = true;
    if (f.ruleId === 'jsonl/invalid-protobuf') seen.protobuf = true;
    reporter.finding(f);
  };
}

/** How a capture verb's filter run ended: its exit code, and whether its input held no event (said once, last). */
export interface FilterExit {
  code: number;
  empty: boolean;
  /** The reader went away (a closed pipe): the run ended quietly, before its input did. */
  stopped?: boolean;
  /** With `deferClosing`: the clause about lines not written that the closing line would have said, for the verb's own. */
  closing?: string;
  /** Lines of another format set aside (`aep/bridge-input`): not plain text, whatever else was read. */
  setAside?: number;
  /** `-o FILE` could not be written (said on stderr): no count line follows. */
  writeFailed?: boolean;
  /** Nothing was read: an input could not be opened or `-o` was refused (said on stderr); no count line follows. */
  unread?: boolean;
}

const LEVELS = ['none', 'metadata', 'redacted', 'full'];

/** The value at an RFC 6901 pointer of `v`, or `undefined`. */
function valueAt(v: unknown, pointer: string): unknown {
  let cur = v;
  for (const t of pointer.slice(1).split('/')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[t.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

/** Register `convert` on the `aep` program (`filter` is src/cli/attr-filter.ts). */
export function addBridgeVerbs(
  program: Command,
  io: CliIO,
  setExit: (code: number) => void,
  runFilter: RunFilter,
): void {
  program
    .command('convert')
    .description(
      'convert AEP events to CloudEvents, OTLP/JSON or OCSF (AEP-0005), or CloudEvents or OTLP (JSON or binary protobuf) back to AEP (--from); write JSONL to stdout, counts of what was left out to stderr',
    )
    .argument('[files...]', 'JSONL files; - reads standard input')
    .addOption(
      new Option('--to <format>', 'the bridge (required unless --from)')
        .choices(['cloudevents', 'otlp', 'ocsf'])
        .conflicts('from'),
    )
    .addOption(
      new Option(
        '--from <format>',
        'the other way: bridge output mapped back to AEP JSONL (AEP-0005 §2, §3.2, §3.4; OCSF has no inbound direction, §4.4), checked as validate --from checks it',
      ).choices(CONVERT_FROM),
    )
    .option(...OUTPUT_OPTION)
    .addOption(
      new Option(
        '--max-capture <level>',
        'capture ceiling: OTLP and OCSF export events above it without payload (default metadata, AEP-0005 §3.3, §4.6); CloudEvents: down-level to it as a hop (AEP-0001 §8.2; default: none applied)',
      ).choices(LEVELS),
    )
    .addOption(PROFILE_OPTION())
    .action(
      async (
        files: string[],
        raw: {
          to?: 'cloudevents' | 'otlp' | 'ocsf';
          from?: (typeof CONVERT_FROM)[number];
          maxCapture?: AepCaptureLevel;
          output?: string;
          profile?: string;
        },
      ) => {
        const max = raw.maxCapture ?? 'metadata';
        if (raw.from) {
          if (raw.from === 'cloudevents' && raw.maxCapture) {
            io.stderr.write(
              "aep: --max-capture applies only with --to, or --from otlp (the exporter's ceiling) (run with --help for usage)\n",
            );
            return setExit(EXIT.usage);
          }
          const o = { from: raw.from, maxCapture: max, ...(raw.profile ? { profile: raw.profile } : {}) };
          return setExit(
            await runConvertFrom(files, { ...o, ...(raw.output ? { output: raw.output } : {}) }, io, runFilter),
          );
        }
        if (!raw.to) {
          io.stderr.write(
            "aep: required option '--to <format>' not specified, nor '--from <format>' (run with --help for usage)\n",
          );
          return setExit(EXIT.usage);
        }
        let converted = 0;
        let noClass = 0;
        // the level each lowered event was written at: a mechanical hop asked for `redacted` writes `metadata` (§8.2(e))
        const downleveled = new Map<string, number>();
        const otlp: OtlpCounts = { records: 0, withheld: 0, extensions: 0, versions: 0 };
        let transform: EventTransform;
        if (raw.to === 'cloudevents') {
          const step = raw.maxCapture
            ? downlevelStream(raw.maxCapture, raw.profile ? { profile: raw.profile } : {})
            : undefined;
          transform = (ev) => {
            const d = step?.(ev.value);
            const e = d ?? ev.value;
            const no = ceRefusal(e);
            if (no) return refuse(`${no.reason} (AEP-0005 §5 item 2: CloudEvents 1.0 JSON format)`, no.pointer);
            if (d) {
              const at = String(d.capture);
              downleveled.set(at, (downleveled.get(at) ?? 0) + 1);
            }
            converted++;
            const ce = toCloudEvent(e);
            // B2: data verbatim, numbers as written (1e400, integers beyond 2^53, 1.50), not JSON.stringify's null or double
            const lits = changedNumbers(ev.text, ev.value, ev.bigIntegers).flatMap(({ pointer: p, text }) => {
              const head = p.slice(1).split('/')[0]!;
              const at =
                (CE_ATTRIBUTE_TABLE[head] ? '/' + escapeToken(CE_ATTRIBUTE_TABLE[head]!) : '/' + head) +
                p.slice(1 + head.length);
              return Object.is(valueAt(ce, at), Number(text)) ? [{ pointer: at, text, index: 0 }] : [];
            });
            return lits.length ? exactText(serializeEvent(ce, lits)) : ce;
          };
        } else if (raw.to === 'otlp') {
          transform = (ev) => {
            const lits = numberLiterals(ev);
            const r = toOtlp([ev.value], { maxCapture: max, literals: [lits.size ? lits : undefined] });
            const no = r.refused[0];
            if (no)
              return refuse(
                `${no.pointer || 'the event'} is ${no.reason}; the record is not exported rather than given another value (AEP-0005 §1 B2, §3.2)`,
                no.pointer,
              );
            for (const k of ['records', 'withheld', 'extensions', 'versions'] as const) otlp[k] += r.counts[k];
            converted++;
            return r.request;
          };
        } else {
          transform = (ev) => {
            const r = toOcsf(ev.value, { maxCapture: max });
            if (r.withheld && r.record) otlp.withheld++;
            if (!r.record) {
              noClass++;
              return null;
            }
            converted++;
            return r.record;
          };
        }
        // bridge output and AHP messages (aep/bridge-input) never reach the transform: runAepFilter sets them aside
        // ASCII-only JSON: the same values, in the bytes of the upstream AEP-0005 pins; every rule runs, so a line
        // `validate` fails is refused with its findings (issue 37 item 4b)
        const end = await runFilter(
          'convert',
          files,
          transform,
          io,
          {
            ascii: true,
            allRules: true,
            ...(raw.profile ? { profile: raw.profile } : {}),
            onRefused: (ev, r) =>
              io.stderr.write(
                `${ev.source}:${ev.line}: not converted to ${raw.to}: ${r.refused}${r.pointer ? ` (at ${r.pointer})` : ''}.\n`,
              ),
          },
          raw.output,
        );
        const s = (n: number) => (n === 1 ? '' : 's');
        // OCSF projects some types only (§4.2): the records written and the events without a class are counted apart
        const parts =
          raw.to === 'ocsf'
            ? [
                `${converted + noClass} valid event${s(converted + noClass)}: ${converted} written as OCSF record${s(converted)}, ${noClass} not written (no OCSF class for the type, AEP-0005 §4.2)`,
                `${otlp.withheld} of the records with the payload withheld at max capture ${max}`,
              ]
            : [`${converted} event${s(converted)} converted to ${raw.to}`];
        if (raw.to === 'cloudevents' && raw.maxCapture) parts.push(downleveledPart(downleveled, raw.maxCapture));
        if (raw.to === 'otlp') parts.push(`${otlp.withheld} with the payload withheld at max capture ${max}`);
        if (raw.to === 'otlp')
          parts.push(
            `${otlp.extensions} extension attribute${otlp.extensions === 1 ? '' : 's'} not exported (no §3.2 place)`,
          );
        // an input that could not be read, that holds no event, or output that could not be written has its one line
        // already; counts of nothing would read as a result
        if (countLineDue(end, converted + noClass, io.writeFailed?.() ?? false))
          io.stderr.write(`aep convert: ${parts.join('; ')}\n`);
        setExit(end.code);
      },
    );
}

/**
 * The closing line's count of lowered events by the level each was written at (`6 down-leveled to metadata (max
 * capture redacted: ...)`): a mechanical hop asked for `redacted` writes `metadata` (AEP-0001 §8.2(e)).
 */
function downleveledPart(byLevel: ReadonlyMap<string, number>, max: string): string {
  const total = [...byLevel.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return `0 down-leveled (max capture ${max})`;
  const below = [...byLevel.keys()].some((l) => l !== max);
  const why = below && max === 'redacted' ? ': a mechanical hop never writes redacted, AEP-0001 §8.2(e)' : '';
  const levels = [...byLevel].map(([l, n]) => `${byLevel.size > 1 ? `${n} ` : ''}to ${l}`).join(', ');
  return below ? `${total} down-leveled ${levels} (max capture ${max}${why})` : `${total} down-leveled ${levels}`;
}
