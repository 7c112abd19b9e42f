/**
 * The AHP checker for the pipeline: each parsed message through {@link validateAhpMessage}
 * (the wire root, or the registration root), duplicate member names as errors, then the AHP
 * stream rules. AHP base/transports/stdio.md (framing), base/transports/http.md (one message
 * per body), interaction-payloads.md.
 */
import type { FindingSink } from '../core/finding.ts';
import { framingFinding, JSONL_RULES } from '../core/jsonl.ts';
import { Engine, isSelected, type RuleSelection } from '../core/engine.ts';
import type { ProtocolChecker, ProtocolDriver, RunStats } from '../core/pipeline.ts';
import { makeFinding, type RuleMeta } from '../core/rule.ts';
import type { AhpBinding, AhpMessage, AhpMessageKind } from './message.ts';
import { ahpEventTypes } from './schemas.ts';
import { AHP_STREAM_RULES, AhpStreamModel, DEFAULT_AHP_STREAM_OPTIONS, type AhpFacts, type AhpStreamOptions, type AhpStreamState } from './stream/index.ts';
import { AHP_MESSAGE_RULES, validateAhpMessage } from './validate.ts';

export type { AhpBinding, AhpMessage, AhpMessageKind } from './message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Classify a parsed value by its JSON-RPC shape. */
export function messageKind(v: Obj, binding: AhpBinding): AhpMessageKind {
  if (binding === 'registration') return 'registration';
  const hasId = Object.prototype.hasOwnProperty.call(v, 'id');
  if (typeof v.method === 'string') {
    if (v.method === 'hooks/intercept' && hasId) return 'intercept-request';
    if (v.method === 'hooks/observe' && !hasId) return 'observe-notification';
    if (v.method === 'hooks/capabilities' && hasId) return 'capabilities-request';
    return 'unknown';
  }
  if (Object.prototype.hasOwnProperty.call(v, 'error')) return 'error-response';
  if (Object.prototype.hasOwnProperty.call(v, 'result')) return 'response';
  return 'unknown';
}

const WIRE_RULES = new Set(['ahp/wire-root', 'ahp/jsonrpc', 'ahp/method']);
/** Rules of validateAhpMessage's own stdio helper, which the CLI reports as jsonl/* and json/* instead. */
const HELPER_ONLY = new Set(['ahp/stdio-framing', 'ahp/duplicate-key']);

/** Every rule `ahp validate` can report. */
export function ahpRules(): RuleMeta[] {
  return [...JSONL_RULES, ...AHP_MESSAGE_RULES.filter((r) => !HELPER_ONLY.has(r.id)), ...AHP_STREAM_RULES].map(({ id, severity, description, spec }) => ({ id, severity, description, spec }));
}

/** Known event types and methods (coverage statistics). */
export function knownAhpTypes(): string[] {
  return [...ahpEventTypes(), 'hooks/capabilities'];
}

/** Options of an AHP run. */
export interface AhpCheckOptions {
  binding?: (source: string) => AhpBinding;
  stream?: Partial<AhpStreamOptions>;
  /** Which rules run (default: all); framing findings (`jsonl/*`, `json/*`) always appear. */
  rules?: RuleSelection;
  /** Called once per run with the run's stream analyzers (read-only use: tests and diagnostics). */
  onStreamState?: (state: AhpStreamState) => void;
}

/** Build the AHP pipeline driver. */
export function ahpDriver(opts: AhpCheckOptions = {}): ProtocolDriver {
  const streamOpts: AhpStreamOptions = { ...DEFAULT_AHP_STREAM_OPTIONS, ...opts.stream };
  const bindingOf = opts.binding ?? ((s: string) => (s.endsWith('.json') ? 'http' : 'stdio'));
  return {
    name: 'ahp',
    cr: 'reject',
    createChecker(sink: FindingSink, stats: RunStats): ProtocolChecker {
      const model = new AhpStreamModel(streamOpts);
      opts.onStreamState?.(model.state);
      // no per-event rules yet: the per-message checks below report through validateAhpMessage
      const engine = new Engine<AhpMessage, AhpFacts, AhpStreamState>([], AHP_STREAM_RULES, model, sink, opts.rules);
      return {
        onEvent(ev) {
          const binding = bindingOf(ev.source);
          const v = ev.value;
          const kind = messageKind(v, binding);
          const params = isObj(v.params) ? v.params : undefined;
          const event = params && isObj(params.event) ? params.event : undefined;
          const t = typeof event?.type === 'string' ? event.type : kind === 'capabilities-request' ? 'hooks/capabilities' : undefined;
          if (t) stats.types.set(t, (stats.types.get(t) ?? 0) + 1);
          for (const d of ev.duplicates) {
            sink(
              framingFinding(
                'json/duplicate-key',
                { source: ev.source, line: ev.line, column: d.index + 1, byteOffset: ev.byteOffset + Buffer.byteLength(ev.text.slice(0, d.index)), pointer: d.pointer },
                `Member "${d.key}" appears more than once in the same object; which value counts is undefined, so the message is invalid.`,
                { spec: 'AHP base/transports/stdio.md §Framing; RFC 8259 §4' },
              ),
            );
          }
          const issues = validateAhpMessage(v, { root: binding === 'registration' ? 'registration' : 'message' });
          // an AEP event fed to `ahp` by mistake: say so once per line, on the JSON-RPC finding
          const looksAep = typeof v.aep === 'string' && !Object.prototype.hasOwnProperty.call(v, 'jsonrpc');
          for (const i of issues) {
            if (!isSelected(opts.rules, i.ruleId)) continue;
            const rule: RuleMeta = { id: i.ruleId, severity: i.severity, description: '', spec: i.spec };
            const message = looksAep && i.ruleId === 'ahp/jsonrpc' ? `${i.message} (This line looks like an AEP event: check it with \`aep validate\`.)` : i.message;
            sink(makeFinding(rule, { pointer: i.pointer, message, data: i.embedded ? { embedded: i.embedded } : undefined }, ev));
          }
          const msg = ev as AhpMessage;
          msg.kind = kind;
          msg.event = event;
          msg.issues = issues;
          msg.wireValid = !issues.some((i) => WIRE_RULES.has(i.ruleId) && i.severity === 'error') && ev.duplicates.length === 0;
          msg.valid = msg.wireValid && !issues.some((i) => i.severity === 'error');
          if (msg.wireValid) engine.streamEvent(msg);
        },
        end() {
          engine.end();
        },
      };
    },
  };
}
