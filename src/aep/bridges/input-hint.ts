/** AEP JSONL read without `--from` whose lines are bridge output or AHP messages: one `aep/bridge-input` finding (issue 37 item 4e). */
import type { FindingSink } from '../../core/finding.ts';
import { type ProtocolChecker, type RunStats, setAside } from '../../core/pipeline.ts';
import { makeFinding } from '../../core/rule.ts';
import { BRIDGE_NAMES, bridgeFormatOf, isJsonRpc } from './hint.ts';
import { BRIDGE_INPUT_RULE } from './rules.ts';

/**
 * `inner` for every line but bridge output: the first such line gets the finding, later ones are skipped; each is
 * counted in `stats` as unchecked, not as an event. Every rule selection keeps the finding, as it keeps framing's: a
 * run that checked nothing of its input must not pass.
 */
export function bridgeInputChecker(inner: ProtocolChecker, sink: FindingSink, stats?: RunStats): ProtocolChecker {
  let told = false;
  return {
    onEvent(ev) {
      // an object with an `aep` member is no bridge output nor JSON-RPC (hint.ts): most lines, one read
      const v = ev.value;
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && v.aep !== undefined) return inner.onEvent(ev);
      const f = bridgeFormatOf(v);
      const rpc = f === undefined && isJsonRpc(v);
      if (f === undefined && !rpc) return inner.onEvent(ev);
      setAside(stats);
      if (told) return;
      told = true;
      sink(
        makeFinding(
          BRIDGE_INPUT_RULE,
          f === undefined
            ? { pointer: '', messageId: 'ahp' }
            : { pointer: '', messageId: 'lines', args: { format: BRIDGE_NAMES[f], from: f } },
          ev,
        ),
      );
    },
    onUnreadable(at) {
      inner.onUnreadable?.(at);
    },
    end() {
      inner.end();
    },
  };
}
