/** The protocol table for the library; each CLI imports its own definition, so its bundle holds one protocol. */
import { AEP } from '../aep/definition.ts';
import { AHP } from '../ahp/definition.ts';
import type { Protocol, ProtocolDefinition } from '../core/protocol.ts';

/** Both protocols, by name. */
export const PROTOCOLS = { aep: AEP, ahp: AHP } as const satisfies Record<Protocol, ProtocolDefinition>;

/** The definition of `protocol`. @throws TypeError for a name other than `aep` or `ahp` */
export function protocolDefinition(protocol: Protocol): ProtocolDefinition {
  if (protocol === 'aep' || protocol === 'ahp') return PROTOCOLS[protocol];
  throw new TypeError(`unknown protocol ${JSON.stringify(protocol)}: expected "aep" or "ahp"`);
}
