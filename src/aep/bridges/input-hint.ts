/**
 * AEP JSONL read without `--from` whose lines are bridge output or AHP messages: one `aep/bridge-input` finding (issue
 * 37 item 4e); lines of an unsupported major version: one `aep/version` finding per major (AEP-0003 §3.1 #3).
 */
import type { FindingSink } from '../../core/finding.ts';
import { type ProtocolChecker, type RunStats, setAside } from '../../core/pipeline.ts';
import { makeFinding } from '../../core/rule.ts';
import { ENVELOPE_RULES } from '../schema/rules.ts';
import { BRIDGE_NAMES, bridgeFormatOf, isJsonRpc, unsupportedMajor } from './hint.ts';
import { BRIDGE_INPUT_RULE } from './rules.ts';

/**
 * `inner` for every line but bridge output: the first such line gets the finding, later ones are skipped; each is
 * counted in `stats` as unchecked, not as an event. Every rule selection keeps the finding, as it keeps framing's: a
 * run that checked nothing of its input must not pass.
 */
export function bridgeInputChecker(inner: ProtocolChecker, sink: FindingSink, stats?: RunStats): ProtocolChecker {
  let told = false;
  // AEP-0003 §3.1 #3: a reader skips a line of an unsupported major version and reports it once (per major)
  const majors = new Set<string>();
  return {
    onEvent(ev) {
      // an object with an `aep` member is no bridge output nor JSON-RPC (hint.ts): most lines, one read
      const v = ev.value;
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && v.aep !== undefined) {
        // the supported version first: one compare for almost every line
        const major = v.aep === '0.1' ? undefined : unsupportedMajor(v);
        if (major === undefined) return inner.onEvent(ev);
        setAside(stats);
        if (majors.has(major)) return;
        majors.add(major);
        const found = v.aep as string;
        sink(makeFinding(ENVELOPE_RULES.version, { pointer: '/aep', messageId: 'major', args: { found, major } }, ev));
        return;
      }
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
