/**
 * The protocols as the library API names them: option types and the definition of a name
 * (src/run/protocols.ts holds the table; docs/architecture.md §The run).
 */
export { protocolDefinition } from '../run/protocols.ts';
export { optionsFromFlags } from '../run/protocol.ts';
export type { AepOptions, AhpOptions, CommonOptions, OptionsFor, Protocol, ProtocolDefinition } from '../run/protocol.ts';
