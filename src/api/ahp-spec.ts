/**
 * AHP as the library API sees it (src/api/protocols.ts `protocolSpec('ahp')`), in its own module
 * so the `ahp` CLI loads no AEP code.
 */
import { bindingByName } from '../ahp/binding.ts';
import { ahpDriver, ahpRules, knownAhpTypes } from '../ahp/driver.ts';
import { selection, type AhpOptions, type ProtocolSpec } from './options.ts';

/** The AHP {@link ProtocolSpec}. */
export const AHP_SPEC: ProtocolSpec = {
  name: 'ahp',
  driver: (o) => {
    const b = (o as AhpOptions).binding;
    return ahpDriver({ rules: selection(AHP_SPEC, o.rules), binding: (source) => b ?? bindingByName(source), ...(o.stream ? { stream: (o as AhpOptions).stream } : {}), ...(o.maxDepth !== undefined ? { maxDepth: o.maxDepth } : {}) });
  },
  rules: ahpRules,
  knownTypes: knownAhpTypes,
  framing: (source, o) => (((o as AhpOptions).binding ?? bindingByName(source)) === 'stdio' ? 'jsonl' : 'document'),
};
