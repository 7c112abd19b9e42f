/**
 * AEP as every entry of the run sees it (src/run/protocols.ts holds the table of both
 * protocols; the `aep` CLI imports this module alone so that it loads no AHP code).
 */
import type { ProtocolDefinition } from '../core/protocol.ts';
import { ruleSelection } from '../core/protocol.ts';
import { aepRules, createAepChecker, knownAepTypes } from './protocol.ts';
import { DEFAULT_AEP_STREAM_OPTIONS, type AepStreamOptions } from './stream/index.ts';

/** The AEP {@link ProtocolDefinition}: JSONL only, CRLF accepted (AEP-0003 §3.1). */
export const AEP: ProtocolDefinition & { name: 'aep' } = {
  name: 'aep',
  description: 'Check Agent Event Protocol (AEP 0.1) JSONL streams for conformance.',
  cr: 'accept-crlf',
  flags: [
    { name: 'maxSessions', flags: '--max-sessions <n>', description: 'most (source, session) pairs tracked at once', to: ['stream', 'maxSessions'], kind: 'positive-int', default: DEFAULT_AEP_STREAM_OPTIONS.maxSessions },
    { name: 'maxOpen', flags: '--max-open <n>', description: 'most open attention requests and pending commands tracked at once', to: ['stream', 'maxOpen'], kind: 'positive-int', default: DEFAULT_AEP_STREAM_OPTIONS.maxOpen },
    { name: 'maxIds', flags: '--max-ids <n>', description: 'most (source, id) digests kept for identity checks', to: ['stream', 'maxIds'], kind: 'positive-int', default: DEFAULT_AEP_STREAM_OPTIONS.maxIds },
    { name: 'ackWindow', flags: '--ack-window <ms>', description: "the targets' ack window in milliseconds (hello.capabilities.control.ack_window_ms)", to: ['stream', 'ackWindowMs'], kind: 'positive-int', default: DEFAULT_AEP_STREAM_OPTIONS.ackWindowMs },
  ],
  rules: aepRules,
  knownTypes: knownAepTypes,
  framing: () => 'jsonl',
  checker(options, out) {
    const o = options as typeof options & { stream?: Partial<AepStreamOptions>; onStreamState?: Parameters<typeof createAepChecker>[0]['onStreamState'] };
    return createAepChecker({ rules: ruleSelection(AEP, o.rules), ...(o.stream ? { stream: o.stream } : {}), ...(o.onStreamState ? { onStreamState: o.onStreamState } : {}) }, out);
  },
};
