/**
 * AEP as the library API sees it (src/api/protocols.ts `protocolSpec('aep')`), in its own module
 * so the `aep` CLI loads no AHP code.
 */
import { aepDriver, aepRules, knownAepTypes } from '../aep/protocol.ts';
import { selection, type AepOptions, type ProtocolSpec } from './options.ts';

/** The AEP {@link ProtocolSpec}. */
export const AEP_SPEC: ProtocolSpec = {
  name: 'aep',
  driver: (o) => aepDriver({ rules: selection(AEP_SPEC, o.rules), ...(o.stream ? { stream: (o as AepOptions).stream } : {}) }),
  rules: aepRules,
  knownTypes: knownAepTypes,
  framing: () => 'jsonl',
};
