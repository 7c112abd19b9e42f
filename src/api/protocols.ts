/**
 * The two protocols as the library API sees them: the pipeline driver for a set of options,
 * the rule catalogue, the known event types and the framing of a named input. Built on the
 * protocol drivers (src/aep/protocol.ts, src/ahp/driver.ts); docs/architecture.md §Data flow.
 */
import { AEP_SPEC } from './aep-spec.ts';
import { AHP_SPEC } from './ahp-spec.ts';
import type { Protocol, ProtocolSpec } from './options.ts';

export { optionsFromFlags } from './options.ts';
export type { AepOptions, AhpOptions, CommonOptions, OptionsFor, Protocol, ProtocolSpec } from './options.ts';

/** The spec of `protocol`. @throws TypeError for a name other than `aep` or `ahp` */
export function protocolSpec(protocol: Protocol): ProtocolSpec {
  if (protocol === 'aep') return AEP_SPEC;
  if (protocol === 'ahp') return AHP_SPEC;
  throw new TypeError(`unknown protocol ${JSON.stringify(protocol)}: expected "aep" or "ahp"`);
}
