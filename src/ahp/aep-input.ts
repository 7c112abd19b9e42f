/**
 * AEP events read by `ahp validate`: one `ahp/jsonrpc` finding naming `aep validate`, as `aep validate` gives one
 * `aep/bridge-input` finding naming `ahp validate` for AHP messages (src/aep/bridges/input-hint.ts). Loads no AEP code.
 * A registration document read as a wire message (stdio or HTTP) likewise gets one finding naming
 * `--binding registration`, whatever its framing (one line, pretty-printed `.json`).
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
 * True for a registration document (base/registration.md §Document shape, AHP-REG-001: `hooks`) that is no wire
 * message (no `jsonrpc`, base/versioning.md §JSON-RPC).
 */
export function looksRegistration(v: unknown): boolean {
  return isObj(v) && Object.hasOwn(v, 'hooks') && !Object.hasOwn(v, 'jsonrpc');
}

/**
 * `inner` for every wire message but AEP events and registration documents: the first gets the finding, later ones are skipped; each is counted in
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
  // registration documents are told once per input: each file is its own mistake to fix
  const toldReg = new Set<string>();
  return {
    onEvent(ev) {
      if (bindingOf(ev.source) === 'registration') return inner.onEvent(ev);
      if (looksRegistration(ev.value)) {
        setAside(stats);
        if (toldReg.has(ev.source)) return;
        toldReg.add(ev.source);
        sink(makeFinding(rule, { pointer: '', messageId: 'registration' }, ev));
        return;
      }
      if (!looksAep(ev.value)) return inner.onEvent(ev);
      setAside(stats);
      if (told) return;
      told = true;
      sink(makeFinding(rule, { pointer: '', messageId: 'aep' }, ev));
    },
    onUnreadable(at) {
      inner.onUnreadable?.(at);
    },
    emptyDocument(source) {
      return inner.emptyDocument?.(source) ?? false;
    },
    end() {
      inner.end();
    },
  };
}
