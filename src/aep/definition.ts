/** AEP as every entry of the run sees it; the `aep` CLI imports this module alone, so it loads no AHP code. */
import { aepEventFacts } from './event-facts.ts';
import type { ProtocolDefinition } from '../core/protocol.ts';
import { bridgeOfCaseName, profileOfCaseName } from '../core/case-names.ts';
import { ruleSelection } from '../core/protocol.ts';
import { selectedSink } from '../core/engine.ts';
import { BRIDGE_FRAMING_SPECS, bridgeChecker } from './bridges/checker.ts';
import { bridgeInputChecker } from './bridges/input-hint.ts';
import { BRIDGE_INPUT_RULE } from './bridges/rules.ts';
import { bridgeHint } from './bridges/hint.ts';
import { OTLP_PROTOBUF } from './bridges/otlp-binary.ts';
import type { AepCaptureLevel } from './schema/registry.ts';
import { AEP_FRAMING_SPECS, aepRules, createAepChecker, knownAepTypes } from './protocol.ts';
import { DEFAULT_AEP_STREAM_OPTIONS, type AepStreamOptions } from './analyzers/options.ts';
import { STREAM_TYPES } from './subprofile.ts';

let withStreams: readonly string[] | undefined;
/** The registry's types and AEP-0007's `stream.*` types (its `message.*` types are registered already). */
function aep0007Types(): readonly string[] {
  return (withStreams ??= Object.freeze([...new Set([...knownAepTypes(), ...STREAM_TYPES])]));
}

/** The AEP {@link ProtocolDefinition}: JSONL only, CRLF accepted (AEP-0003 §3.1). */
export const AEP: ProtocolDefinition & { name: 'aep' } = {
  name: 'aep',
  description: 'Check Agent Event Protocol (AEP 0.1) JSONL streams for conformance.',
  cr: 'accept-crlf',
  framingSpecs: (o) =>
    o.from === 'cloudevents' || o.from === 'otlp' || o.from === 'ocsf'
      ? BRIDGE_FRAMING_SPECS[o.from]
      : AEP_FRAMING_SPECS,
  flags: [
    {
      name: 'maxSessions',
      flags: '--max-sessions <n>',
      description: 'most (source, session) pairs tracked at once',
      to: ['stream', 'maxSessions'],
      kind: 'positive-int',
      default: DEFAULT_AEP_STREAM_OPTIONS.maxSessions,
    },
    {
      name: 'maxOpen',
      flags: '--max-open <n>',
      description: 'most open attention requests and pending commands tracked at once',
      to: ['stream', 'maxOpen'],
      kind: 'positive-int',
      default: DEFAULT_AEP_STREAM_OPTIONS.maxOpen,
    },
    {
      name: 'maxStateMb',
      flags: '--max-state-mb <mb>',
      description: 'memory budget of all stream state, in MiB (the oldest completed work is forgotten beyond it)',
      to: ['stream', 'maxStateMb'],
      kind: 'positive-number',
      default: DEFAULT_AEP_STREAM_OPTIONS.maxStateMb,
    },
    {
      name: 'maxIds',
      flags: '--max-ids <n>',
      description:
        'most (source, id) digests kept for identity checks (default: no count limit, the memory budget decides)',
      to: ['stream', 'maxIds'],
      kind: 'positive-int',
    },
    {
      name: 'from',
      flags: '--from <format>',
      description:
        'read bridge output instead of AEP JSONL: CloudEvents (JSON format, one event or batch per line, or one .json document); OTLP/JSON logs or OCSF records (one record or array per line, or one .json document); OTLP binary protobuf (one request body, or a Collector format: proto file; told from the bytes) (AEP-0005), mapped back and checked as AEP',
      to: ['from'],
      kind: 'choice',
      choices: ['cloudevents', 'otlp', 'ocsf'],
    },
    {
      name: 'maxCapture',
      flags: '--max-capture <level>',
      description: "with --from otlp or ocsf: the exporter's capture ceiling (AEP-0005 §3.3, §4.6)",
      to: ['maxCapture'],
      kind: 'choice',
      choices: ['none', 'metadata', 'redacted', 'full'],
      requires: { name: 'from', value: ['otlp', 'ocsf'], flags: '--from otlp or --from ocsf' },
    },
    {
      name: 'forms',
      flags: '--forms <level>',
      description:
        'which envelope forms to check: "required" (default) or "recommended", which adds the RECOMMENDED forms of AEP-0001 §5.1 (ULID ids, the aep://{host}/agent/{agent}/session/{session} source) as warnings',
      to: ['stream', 'forms'],
      kind: 'choice',
      choices: ['required', 'recommended'],
    },
    {
      name: 'profile',
      flags: '--profile <name>',
      description:
        'also check a sub-profile beyond the AEP 0.1 registry: aep-0007, the message and stream sub-profile (a Draft: the stream category, message.* as optional types)',
      to: ['profile'],
      kind: 'choice',
      choices: ['aep-0007'],
    },
    {
      name: 'ackWindow',
      flags: '--ack-window <ms>',
      description: "the targets' ack window in milliseconds (hello.capabilities.control.ack_window_ms)",
      to: ['stream', 'ackWindowMs'],
      kind: 'positive-int',
      default: DEFAULT_AEP_STREAM_OPTIONS.ackWindowMs,
    },
  ],
  rules: aepRules,
  // AEP-0007's stream types are known under its profile (its message.* types are registered, reserved)
  knownTypes: (o) => (o?.profile === 'aep-0007' ? aep0007Types() : knownAepTypes()),
  eventFacts: aepEventFacts,
  // bridge output may be one pretty-printed document (an OTLP export, a CE batch) in a .json file
  framing: (source, o) => (o.from !== undefined && source.endsWith('.json') ? 'document' : 'jsonl'),
  // OTLP's binary protobuf encoding, told from the bytes whatever the name (src/aep/bridges/otlp-binary.ts)
  binaryEncoding: (o) => (o.from === 'otlp' ? OTLP_PROTOBUF : undefined),
  acceptArrays: (o) => o.from === 'cloudevents' || o.from === 'ocsf',
  // issue 37 item 4d: a `.json` bridge input that is not one document is JSON lines
  documentLines: (o) => o.from !== undefined,
  // a pretty-printed CloudEvents batch or OTLP request on stdin: one finding naming `--from` (issue 37 item 4e)
  bindingHint: (text, _source, framing, o) => (framing === 'jsonl' ? bridgeHint(text, o.from) : undefined),
  caseOptions: (name) => {
    const from = bridgeOfCaseName(name);
    const profile = profileOfCaseName(name);
    return { ...(from ? { from } : {}), ...(profile ? { profile } : {}) };
  },
  checker(options, out) {
    const o = options as typeof options & {
      stream?: Partial<AepStreamOptions>;
      onStreamState?: Parameters<typeof createAepChecker>[0]['onStreamState'];
    };
    const rules = ruleSelection(AEP, o.rules);
    const aep = (sink: typeof out.sink) =>
      createAepChecker(
        {
          rules,
          ...(o.profile ? { profile: o.profile } : {}),
          ...(o.stream ? { stream: o.stream } : {}),
          ...(o.onStreamState ? { onStreamState: o.onStreamState } : {}),
        },
        { ...out, sink },
      );
    if (o.from === undefined) return bridgeInputChecker(aep(out.sink), out.sink, out.stats);
    if (o.from !== 'cloudevents' && o.from !== 'otlp' && o.from !== 'ocsf')
      throw new TypeError(`unknown bridge input ${JSON.stringify(o.from)}: expected "cloudevents", "otlp" or "ocsf"`);
    // a selection holds the bridge's own rules to it as it does AEP's; the finding on lines of another format stays,
    // so a selection never passes an input of which nothing was checked (README §Options of `validate`, --rule)
    const sink = rules ? selectedSink(out.sink, new Set([...rules, BRIDGE_INPUT_RULE.id])) : out.sink;
    return bridgeChecker(o.from, (o.maxCapture ?? 'metadata') as AepCaptureLevel, aep, sink, out.stats);
  },
};
