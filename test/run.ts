// Test access to the run (src/run/run.ts): a protocol with options, as `validate` builds it,
// and one stream of inputs through it with every finding collected by the caller.
import { AEP } from '../src/aep/definition.ts';
import type { AepStreamState } from '../src/aep/analyzers/model.ts';
import { AHP } from '../src/ahp/definition.ts';
import type { AhpStreamState } from '../src/ahp/analyzers/model.ts';
import type { FindingSink } from '../src/core/finding.ts';
import type { InputSpec, RunStats } from '../src/core/pipeline.ts';
import type { ProtocolDefinition, ProtocolOptions } from '../src/core/protocol.ts';
import { runInputs, type RunResult } from '../src/run/run.ts';

/** A protocol and the options of one run of it. */
export interface TestDriver {
  def: ProtocolDefinition;
  options: ProtocolOptions & { onStreamState?: (s: never) => void };
}

type Rules = Iterable<string> | undefined;
const rulesOf = (r: Rules) => (r === undefined ? {} : { rules: [...r] as never });

/** AEP with `validate`'s defaults, overridden by `o`. */
export function aepDriver(
  o: {
    stream?: ProtocolOptions['stream'];
    rules?: Rules;
    onStreamState?: (s: AepStreamState) => void;
    profile?: 'aep-0007';
  } = {},
): TestDriver {
  return {
    def: AEP,
    options: <TestDriver['options']>{
      ...rulesOf(o.rules),
      ...(o.profile ? { profile: o.profile } : {}),
      ...(o.stream ? { stream: o.stream } : {}),
      ...(o.onStreamState ? { onStreamState: o.onStreamState as (s: never) => void } : {}),
    },
  };
}

/** AHP with `validate`'s defaults (binding by input name unless `binding` names one), overridden by `o`. */
export function ahpDriver(
  o: {
    stream?: ProtocolOptions['stream'];
    rules?: Rules;
    binding?: unknown;
    onStreamState?: (s: AhpStreamState) => void;
  } = {},
): TestDriver {
  return {
    def: AHP,
    options: <TestDriver['options']>{
      ...rulesOf(o.rules),
      ...(o.stream ? { stream: o.stream } : {}),
      ...(typeof o.binding === 'string' ? { binding: o.binding as never } : {}),
      ...(o.onStreamState ? { onStreamState: o.onStreamState as (s: never) => void } : {}),
    },
  };
}

/** Statistics of a test run: the summary's counts and the event types seen. */
export type TestStats = RunResult['summary'] & Pick<RunStats, 'types'> & { incomplete: boolean };

/**
 * Check `inputs` as one stream (`each: false`) through the run, every finding to `sink`.
 * @throws InputError from the run
 */
export async function runPipeline(
  inputs: readonly InputSpec[],
  d: TestDriver,
  sink: FindingSink,
  opts: { maxLineBytes?: number; maxDepth?: number } = {},
): Promise<TestStats> {
  const limits = {
    ...(opts.maxLineBytes !== undefined ? { maxLineBytes: opts.maxLineBytes } : {}),
    ...(opts.maxDepth !== undefined ? { maxDepth: opts.maxDepth } : {}),
  };
  const r = await runInputs(d.def, inputs, { ...d.options, ...limits, each: false }, { finding: sink });
  const types = new Map<string, number>([
    ...Object.entries(r.summary.coverage?.seen ?? {}),
    ...Object.entries(r.summary.coverage?.unknown ?? {}),
  ]);
  return { ...r.summary, types, incomplete: r.incomplete };
}
