/**
 * `aep redact` (AEP-0003 §9.4) and `aep downlevel --ceiling` (AEP-0001 §8.2, §8.2(e)): events to stdout, findings to
 * stderr; exit 1 on a refused line, an error or an empty input (README §Exit codes).
 */
import { EXIT } from '../core/exit.ts';
import { homedir } from 'node:os';
import { Option, type Command } from 'commander';
import { downlevelStream } from '../aep/downlevel.ts';
import { refuse, runAepFilter, type AepFilterOptions, type EventTransform } from '../run/aep-filter.ts';
import { contentIn, createRedactor, redactEvent, type RedactOptions } from '../aep/redact.ts';
import type { AepCaptureLevel } from '../aep/schema/registry.ts';
import { exitCodeOf } from '../run/run.ts';
import { reportRunError, type CliIO } from './common.ts';
import { closingLine, countLineDue, emptyInputLine, inputErrorsLine, notWrittenClause } from './closing.ts';
import {
  addBridgeVerbs,
  type FilterExit,
  noteEmpty,
  OUTPUT_OPTION,
  openStreamVerb,
  PROFILE_OPTION,
  type TransformVerb,
} from './aep-bridges.ts';
import { StreamOutput } from './stream-output.ts';
import { addFilterVerb } from './attr-filter.ts';

interface RedactFlags {
  secretName?: string[];
  home?: string;
  pii: boolean;
  profile?: string;
}

const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

function addRedactFlags(cmd: Command): Command {
  return cmd
    .option(
      '--secret-name <name>',
      'rule (b): a variable or config key whose values are secret (repeatable; its value in the environment is redacted too)',
      collect,
    )
    .option('--home <path>', "rule (c): the home directory replaced by ~ (default: the current user's)")
    .option('--no-pii', 'rule (d) off: keep emails and phone numbers')
    .addOption(PROFILE_OPTION());
}

/** The filter options of `--profile` (the checker accepts the sub-profile's types; the hop follows its annotations). */
const profileOf = (f: RedactFlags): AepFilterOptions => (f.profile ? { profile: f.profile } : {});

/** The pipeline options of the flags; a listed name's value in the environment is a secret value. */
function redactOptionsOf(f: RedactFlags, io: CliIO): RedactOptions {
  const names = f.secretName ?? [];
  const values = names.map((n) => io.env[n]).filter((v): v is string => typeof v === 'string' && v.length >= 4);
  return { secretNames: names, secretValues: values, home: f.home ?? io.env.HOME ?? homedir(), pii: f.pii };
}

const UNPLACED = 'the line has error findings and its copy would still hold a secret, email address or phone number';

/** A capture verb's transform of each line; a line with error findings is written unless its copy holds content. */
function captureStep(
  step: (ev: Readonly<Record<string, unknown>>) => Record<string, unknown> | undefined,
): EventTransform {
  return (ev, invalid) => {
    // bridge output and AHP messages never get here (runAepFilter sets them aside); a repeated member's other copies are
    // in the text, not in the value checked and gated: written from the value
    const out = step(ev.value) ?? (ev.duplicates.length > 0 ? { ...ev.value } : undefined);
    // the event rules that place content do not run on a line whose envelope or payload failed
    return invalid && contentIn(out ?? ev.value) ? refuse(UNPLACED) : out;
  };
}

/** Why a line the transform refused was not written, as each verb's closing line says it. */
const REFUSED: Readonly<Record<TransformVerb, string>> = {
  convert: 'refused by the conversion',
  redact: 'with error findings and content the copy would keep',
  downlevel: 'with error findings and content the copy would keep',
};

/** Run one filter; findings in text on stderr, the JSONL to `output` or stdout (with backpressure). */
async function runFilter(
  verb: TransformVerb,
  files: string[],
  transform: EventTransform,
  io: CliIO,
  filter: AepFilterOptions = {},
  output?: string,
  deferClosing = false,
): Promise<FilterExit> {
  // bridge output may be one pretty-printed document in a .json file, as `validate --from` reads it
  const opened = openStreamVerb(
    files,
    io,
    filter.from ? (p) => (p.endsWith('.json') ? 'document' : 'jsonl') : undefined,
  );
  if (!opened) return { code: EXIT.io, empty: false, unread: true };
  const { inputs, reporter } = opened;
  const out = StreamOutput.open(io, output, files);
  if (!out) return { code: EXIT.io, empty: false, unread: true };
  const seen: { empty: boolean; protobuf?: boolean } = { empty: false };
  try {
    const r = await runAepFilter(
      inputs,
      (ev, invalid) => {
        // OTLP protobuf (--from otlp) is read as messages, not lines: the closing clause counts those
        if (ev.binary) seen.protobuf = true;
        return transform(ev, invalid);
      },
      (line) => out.line(line),
      noteEmpty(reporter, seen),
      filter,
      out.ready,
    );
    const failed = out.finish(true);
    if (failed !== undefined) {
      io.stderr.write(`aep: cannot write ${output}: ${failed}\n`);
      return { code: EXIT.io, empty: false, writeFailed: true };
    }
    // an error about no line (an empty input) also fails the run: never a silent pass
    const code = exitCodeOf(r, 'error');
    const fails = r.rejected > 0 || code !== 0;
    const exit = code === EXIT.incomplete ? EXIT.incomplete : fails ? EXIT.findings : EXIT.ok;
    // the reader went away (a closed pipe): nothing more to write; the verdict is on what was read so far
    if (r.stopped) return { code: exit, empty: false, stopped: true };
    if (fails) {
      reporter.finish(r.summary);
      // no line to read (an empty input, or only blank lines): one closing line under the findings
      if (seen.empty && r.written === 0) {
        io.stderr.write(emptyInputLine(verb));
        return { code: exit, empty: true };
      }
      if (r.rejected === 0 && r.invalidWritten === 0) {
        if (deferClosing)
          return { code: exit, empty: false, closing: 'the error findings above are about the input, not a line' };
        io.stderr.write(inputErrorsLine(verb, r.written));
        return { code: exit, empty: false };
      }
      // the verb says what it wrote in its own terms, with this clause in the same sentence
      if (deferClosing)
        return {
          code: exit,
          empty: false,
          closing: notWrittenClause(r, REFUSED[verb], seen.protobuf ? 'message' : 'line'),
        };
      io.stderr.write(closingLine(verb, r, REFUSED[verb]));
    }
    return { code: exit, empty: false, setAside: r.setAside };
  } catch (e) {
    out.finish(false);
    return { code: reportRunError('aep', e, io), empty: false };
  }
}

/** Said when `aep redact` read no event and failed: it reads AEP JSONL; the library's `redact(text)` takes any text. */
const PLAIN_TEXT_HINT =
  "aep redact: it reads AEP events, one JSON object a line; to redact plain text, call the library's redact(text) (README §Library API)\n";

/** The stderr line naming why a line was refused. */
const notWritten =
  (io: CliIO): AepFilterOptions['onRefused'] =>
  (ev, r) =>
    io.stderr.write(`${ev.source}:${ev.line}: not written: ${r.refused}.\n`);

/** Register `redact` and `downlevel` on the `aep` program, and the bridge verbs `filter` and `convert` (src/cli/aep-bridges.ts). */
export function addCaptureVerbs(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const redact = program
    .command('redact')
    .description(
      'apply the AEP-0003 §9.4 redaction pipeline to the redacted-gated text of events at capture redacted or full; write JSONL to stdout',
    )
    .argument('[files...]', 'JSONL files; - reads standard input')
    .option(...OUTPUT_OPTION);
  addRedactFlags(redact).action(async (files: string[], raw: RedactFlags & { output?: string }) => {
    const r = createRedactor(redactOptionsOf(raw, io));
    const n = { events: 0, redacted: 0, lowered: 0 };
    const end = await runFilter(
      'redact',
      files,
      captureStep((ev) => {
        const out = redactEvent(ev, r, raw.profile);
        n.events++;
        if (out === ev) return undefined;
        n.redacted++;
        if (ev.capture === 'full' && out.capture === 'redacted') n.lowered++;
        return out;
      }),
      io,
      { ...profileOf(raw), invalid: true, onRefused: notWritten(io) },
      raw.output,
    );
    // what was replaced, as `aep convert` counts what it left out; not after a line that already ended the run
    if (countLineDue(end, n.events, io.writeFailed?.() ?? false))
      io.stderr.write(
        `aep redact: ${n.redacted} of ${n.events} event${n.events === 1 ? '' : 's'} redacted; ${n.lowered} lowered from full to redacted (AEP-0003 §9 item 5)\n`,
      );
    // nothing read as an event, none of another format, and the run failed: likely plain text
    else if (
      !end.empty &&
      !end.stopped &&
      n.events === 0 &&
      end.code !== EXIT.ok &&
      end.code !== EXIT.io &&
      !end.setAside
    )
      io.stderr.write(PLAIN_TEXT_HINT);
    setExit(end.code);
  });

  const downlevel = program
    .command('downlevel')
    .description(
      'bring every event down to min(capture, ceiling) as a relay must (AEP-0001 §8.2); write JSONL to stdout',
    )
    .argument('[files...]', 'JSONL files; - reads standard input')
    .addOption(
      new Option('--ceiling <level>', 'the capture ceiling')
        .choices(['none', 'metadata', 'redacted', 'full'])
        .makeOptionMandatory(),
    )
    .option(...OUTPUT_OPTION)
    .option(
      '--redact',
      'act as a redacting re-emitter: a full event under a redacted ceiling is redacted (AEP-0003 §9.4) and kept at redacted, instead of landing on metadata; every event kept at redacted or full is redacted as aep redact does',
    );
  addRedactFlags(downlevel).action(
    async (files: string[], raw: RedactFlags & { ceiling: AepCaptureLevel; redact?: boolean; output?: string }) => {
      const r = createRedactor(redactOptionsOf(raw, io));
      const step = downlevelStream(raw.ceiling, {
        ...(raw.redact ? { redact: r } : {}),
        screen: r,
        ...(raw.profile ? { profile: raw.profile } : {}),
      });
      const n = { events: 0, lowered: 0, changed: 0 };
      // at a redacted or full ceiling redacted-gated text is written as it came: a leak in it refuses the line, unless
      // the hop redacts (--redact), which repairs it as `aep redact` does (issue 43 item 4)
      const end = await runFilter(
        'downlevel',
        files,
        captureStep((ev) => {
          const out = step(ev);
          n.events++;
          // downlevel never raises a level, so a capture that differs was lowered
          if (out && (out.capture ?? 'metadata') !== (ev.capture ?? 'metadata')) n.lowered++;
          else if (out) n.changed++;
          return out;
        }),
        io,
        {
          ...profileOf(raw),
          refuseLeaks: !raw.redact && (raw.ceiling === 'redacted' || raw.ceiling === 'full'),
          invalid: true,
          onRefused: notWritten(io),
        },
        raw.output,
      );
      // what was lowered, as `aep redact` counts what it replaced; not after a line that already ended the run
      if (countLineDue(end, n.events, io.writeFailed?.() ?? false))
        io.stderr.write(
          `aep downlevel: ${n.lowered} of ${n.events} event${n.events === 1 ? '' : 's'} lowered (ceiling ${raw.ceiling}); ${n.changed} more changed at ${n.changed === 1 ? 'its' : 'their'} own level (AEP-0001 §8.2)\n`,
        );
      setExit(end.code);
    },
  );

  addFilterVerb(program, io, setExit);
  addBridgeVerbs(program, io, setExit, runFilter);
}
