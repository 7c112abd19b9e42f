/**
 * `aep filter --where` (AEP-0003 §6): the lines a subscriber with the filter receives, byte for byte. It selects and
 * does not validate, but bridge output and AHP messages are no AEP events: they are set aside with the one
 * `aep/bridge-input` finding, as the other stream verbs and `validate` set them aside.
 */
import type { Command } from 'commander';
import { EXIT, exitCodeOfError } from '../core/exit.ts';
import { FILTERABLE_CORE, InvalidFilterError, matches, parseFilter, type AttrFilter } from '../aep/attr-match.ts';
import { AEP_SEVERITIES } from '../aep/bridges/types.ts';
import { isSetAside } from '../aep/bridges/hint.ts';
import { bridgeInputChecker } from '../aep/bridges/input-hint.ts';
import { AEP } from '../aep/definition.ts';
import type { ProtocolDefinition } from '../core/protocol.ts';
import { nearestWord } from '../core/nearest.ts';
import { exitCodeOf, runInputs } from '../run/run.ts';
import { lineRejections } from '../run/aep-filter.ts';
import { reportRunError, type CliIO } from './common.ts';
import { closingLine, emptyInputLine, inputErrorsLine } from './closing.ts';
import { noteEmpty, openStreamVerb, OUTPUT_OPTION } from './aep-bridges.ts';
import { StreamOutput } from './stream-output.ts';
import { nearestRuleIds } from './verbs.ts';

/**
 * A note for each filter key that is not a core attribute but is one edit from one (`typ`): §6.2
 * reads it as an extension attribute, which is legal, so it is a note on stderr and not a refusal.
 */
export function extensionKeyNotes(filter: AttrFilter): string[] {
  return filter.predicates.flatMap(({ key }) => {
    if (FILTERABLE_CORE.includes(key)) return [];
    const near = nearestRuleIds(FILTERABLE_CORE, key, 1);
    return near.length
      ? [
          `note: "${key}" is read as an extension attribute (AEP-0003 §6.2 rule 1), not the core attribute "${near[0]}"; an event without "${key}" never matches`,
        ]
      : [];
  });
}

/** The closed value sets of filterable core attributes (AEP-0001 §8.1 severities, §8.2 capture levels). */
const CLOSED: Readonly<Record<string, readonly string[]>> = {
  severity: AEP_SEVERITIES,
  capture: ['none', 'metadata', 'redacted', 'full'],
};

/**
 * The first value of a `severity` or `capture` predicate outside its closed set, as a usage error naming it and the
 * nearest value, or `undefined`. §6.1's grammar reads it as a Scalar (so the library's `parseFilter` takes it), but no
 * valid event holds it: the CLI refuses it rather than select nothing in silence (README §Subscription filters).
 */
export function closedValueError(filter: AttrFilter): string | undefined {
  for (const p of filter.predicates) {
    const set = CLOSED[p.key];
    if (p.kind !== 'any' || set === undefined) continue;
    const bad = p.values.find((v) => typeof v !== 'string' || !set.includes(v));
    if (bad === undefined) continue;
    const near = typeof bad === 'string' ? nearestWord(bad, set, true) : undefined;
    return `the ${p.key} value ${JSON.stringify(bad).slice(0, 40)} is not one of ${set.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}: no AEP event holds it, so the filter would select nothing`;
  }
  return undefined;
}

/** Run `aep filter`: write the lines `filter` matches (to `output`, or stdout). */
export async function runAttrFilter(files: string[], filter: AttrFilter, io: CliIO, output?: string): Promise<number> {
  const opened = openStreamVerb(files, io);
  if (!opened) return EXIT.io;
  const { inputs, reporter } = opened;
  const out = StreamOutput.open(io, output, files);
  if (!out) return EXIT.io;
  const seen = { empty: false };
  const note = noteEmpty(reporter, seen);
  const n = { written: 0, rejected: 0, refused: 0, setAside: 0, invalidWritten: 0 };
  const rejectsLine = lineRejections();
  // the run reads and parses; its checker only matches (a subscriber's filter does not validate), behind the check that
  // sets bridge output and AHP messages aside with one finding
  const select: ProtocolDefinition = {
    ...AEP,
    checker: (_o, run) =>
      bridgeInputChecker(
        {
          onEvent(ev) {
            if (!matches(filter, ev.value)) return;
            n.written++;
            out.line(`${ev.text}\n`);
          },
          end() {},
        },
        run.sink,
        run.stats,
      ),
  };
  try {
    const r = await runInputs(
      select,
      inputs,
      { each: false },
      {
        finding(f) {
          // a line with an error is not read, so not matched
          if (rejectsLine(f)) n.rejected++;
          note(f);
        },
        event(ev, bad) {
          if (!isSetAside(ev.value)) return;
          n.setAside++;
          if (!bad) n.rejected++;
        },
        ready: out.ready,
      },
    );
    const failed = out.finish(true);
    if (failed !== undefined) {
      io.stderr.write(`aep: cannot write ${output}: ${failed}\n`);
      return EXIT.io;
    }
    const fails = exitCodeOf(r, 'error') !== 0;
    // the reader went away (a closed pipe): the verdict is on the lines read so far
    if (r.stopped) return fails ? EXIT.findings : EXIT.ok;
    if (fails) {
      reporter.finish(r.summary);
      if (seen.empty) io.stderr.write(emptyInputLine('filter'));
      else if (n.rejected === 0) io.stderr.write(inputErrorsLine('filter', n.written));
      else io.stderr.write(closingLine('filter', n));
      return EXIT.findings;
    }
    return EXIT.ok;
  } catch (e) {
    out.finish(false);
    return reportRunError('aep', e, io);
  }
}

/** Register `filter` on the `aep` program; an invalid filter exits 2 before any output (fail closed). */
export function addFilterVerb(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('filter')
    .description(
      'write the events an attr-match subscriber with FILTER receives (AEP-0003 §6), byte for byte; selects, does not validate',
    )
    .argument('[files...]', 'JSONL files; - reads standard input')
    .requiredOption('--where <filter>', 'the attr-match filter, a JSON object, e.g. \'{"type":["attention.*"]}\'')
    .option(...OUTPUT_OPTION)
    .action(async (files: string[], raw: { where: string; output?: string }) => {
      let filter: AttrFilter;
      try {
        filter = parseFilter(raw.where);
      } catch (e) {
        if (!(e instanceof InvalidFilterError)) throw e;
        io.stderr.write(`aep: --where: ${e.message} (AEP-0003 §6; refused, fail closed)\n`);
        setExit(exitCodeOfError(e));
        return;
      }
      const closed = closedValueError(filter);
      if (closed !== undefined) {
        io.stderr.write(`aep: --where: ${closed} (AEP-0001 §8.1, §8.2; refused)\n`);
        setExit(EXIT.usage);
        return;
      }
      for (const note of extensionKeyNotes(filter)) io.stderr.write(`aep: --where: ${note}\n`);
      setExit(await runAttrFilter(files, filter, io, raw.output));
    });
}
