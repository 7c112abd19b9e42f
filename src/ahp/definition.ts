/** AHP as every entry of the run sees it; the `ahp` CLI imports this module alone, so it loads no AEP code. */
import { AHP_FRAMING_WORDS } from '../core/framing.ts';
import { ahpEventFacts } from './event-facts.ts';
import type { ProtocolDefinition } from '../core/protocol.ts';
import { ruleSelection } from '../core/protocol.ts';
import { aepInputChecker } from './aep-input.ts';
import { bindingByName } from './binding.ts';
import { bindingHint } from './binding-hint.ts';
import { AHP_FRAMING_SPECS, ahpRules, createAhpChecker, knownAhpTypes } from './driver.ts';
import type { AhpBinding } from './message.ts';
import { DEFAULT_AHP_STREAM_OPTIONS, type AhpStreamOptions } from './analyzers/options.ts';

/** The AHP {@link ProtocolDefinition}: the stdio binding is JSONL with LF only (AHP-STDIO-001). */
export const AHP: ProtocolDefinition & { name: 'ahp' } = {
  name: 'ahp',
  description:
    'Check Agent Hooks Protocol (draft) traffic: stdio JSONL captures, HTTP message bodies and registration documents.',
  cr: 'reject',
  framingSpecs: AHP_FRAMING_SPECS,
  framingWords: AHP_FRAMING_WORDS,
  flags: [
    {
      name: 'binding',
      flags: '--binding <binding>',
      description:
        'read every input as this binding (default: *.registration.json or registration/*.json = registration, other .json = http, else stdio)',
      to: ['binding'],
      kind: 'choice',
      choices: ['stdio', 'http', 'registration'],
    },
    {
      name: 'maxPending',
      flags: '--max-pending <n>',
      description: 'most intercept requests awaiting a response tracked at once',
      to: ['stream', 'maxPending'],
      kind: 'positive-int',
      default: DEFAULT_AHP_STREAM_OPTIONS.maxPending,
    },
    {
      name: 'maxStateMb',
      flags: '--max-state-mb <mb>',
      description: 'memory budget of all stream state, in MiB (the oldest completed work is forgotten beyond it)',
      to: ['stream', 'maxStateMb'],
      kind: 'positive-number',
      default: DEFAULT_AHP_STREAM_OPTIONS.maxStateMb,
    },
    {
      name: 'maxEvents',
      flags: '--max-events <n>',
      description:
        'most event ids remembered for lineage and retries (default: no count limit, the memory budget decides)',
      to: ['stream', 'maxEvents'],
      kind: 'positive-int',
    },
  ],
  rules: ahpRules,
  knownTypes: knownAhpTypes,
  eventFacts: ahpEventFacts,
  bindingHint: (text, source, framing, o) =>
    bindingHint(text, framing === 'jsonl' ? 'stdio' : ((o.binding as AhpBinding | undefined) ?? bindingByName(source))),
  framing: (source, o) =>
    ((o.binding as AhpBinding | undefined) ?? bindingByName(source)) === 'stdio' ? 'jsonl' : 'document',
  checker(options, out) {
    const o = options as typeof options & {
      binding?: AhpBinding;
      stream?: Partial<AhpStreamOptions>;
      onStreamState?: Parameters<typeof createAhpChecker>[0]['onStreamState'];
      single?: Parameters<typeof createAhpChecker>[0]['single'];
    };
    const b = o.binding;
    const selection = ruleSelection(AHP, o.rules);
    // asked per message (here and by the checker): one input's messages share a source, so its name is read once
    let lastSource: string | undefined;
    let lastBinding: AhpBinding = 'stdio';
    const bindingOf = (source: string): AhpBinding => {
      if (b !== undefined) return b;
      if (source !== lastSource) {
        lastBinding = bindingByName(source);
        lastSource = source;
      }
      return lastBinding;
    };
    const ahp = createAhpChecker(
      {
        rules: selection,
        binding: bindingOf,
        ...(o.stream ? { stream: o.stream } : {}),
        ...(o.maxDepth !== undefined ? { maxDepth: o.maxDepth } : {}),
        ...(o.onStreamState ? { onStreamState: o.onStreamState } : {}),
        ...(o.single ? { single: o.single } : {}),
      },
      out,
    );
    // an AEP log given to `ahp`: one finding naming `aep validate`, as aep names `ahp validate` (a single message, as
    // the fixture runner's manifest cases check, keeps its schema verdict)
    return o.single ? ahp : aepInputChecker(ahp, out.sink, bindingOf, out.stats);
  },
};
