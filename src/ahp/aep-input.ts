/**
 * AEP events read by `ahp validate`: one `ahp/jsonrpc` finding naming `aep validate`, as `aep validate` gives one
 * `aep/bridge-input` finding naming `ahp validate` for AHP messages (src/aep/bridges/input-hint.ts). Loads no AEP code.
 */
import type { FindingSink } from '../core/finding.ts';
import { type ProtocolChecker, type RunStats, setAside } from '../core/pipeline.ts';
import { makeFinding } from '../core/rule.ts';
import { isObj } from '../core/value.ts';
import type { AhpBinding } from './message.ts';
import { AHP_SCHEMA_RULES } from './schema/rules.ts';

/**
 * True for an AEP event (an `aep` version string, AEP-0001 §5) that is no JSON-RPC message (no `jsonrpc` member,
 * which every AHP wire message has: base/versioning.md §JSON-RPC).
 */
export function looksAep(v: unknown): boolean {
  return isObj(v) && typeof v.aep === 'string' && !Object.hasOwn(v, 'jsonrpc');
}

/**
 * `inner` for every wire message but AEP events: the first gets the finding, later ones are skipped; each is counted in
 * `stats` as unchecked, not as an event. Registration documents go to `inner`. Every rule selection keeps the finding,
 * as it keeps framing's: a run that checked nothing of its input must not pass.
 */
export function aepInputChecker(
  inner: ProtocolChecker,
  sink: FindingSink,
  bindingOf: (source: string) => AhpBinding,
  stats?: RunStats,
): ProtocolChecker {
  const rule = AHP_SCHEMA_RULES['ahp/jsonrpc'];
  let told = false;
  return {
    onEvent(ev) {
      if (!looksAep(ev.value) || bindingOf(ev.source) === 'registration') return inner.onEvent(ev);
      setAside(stats);
      if (told) return;
      told = true;
      sink(makeFinding(rule, { pointer: '', messageId: 'aep' }, ev));
    },
    onUnreadable(at) {
      inner.onUnreadable?.(at);
    },
    end() {
      inner.end();
    },
  };
}
