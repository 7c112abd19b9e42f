/**
 * The AHP checker for the pipeline: each parsed message through {@link validateAhpMessage}
 * (the wire root, or the registration root), duplicate member names as errors, then the AHP
 * stream rules. AHP base/transports/stdio.md (framing), base/transports/http.md (one message
 * per body), interaction-payloads.md.
 */
import type { RuleSelection } from '../core/engine.ts';
import type { FindingSink } from '../core/finding.ts';
import { framingFinding, JSONL_RULES } from '../core/jsonl.ts';
import type { ProtocolChecker, ProtocolDriver, RunStats } from '../core/pipeline.ts';
import { makeFinding, RuleRunner, type ParsedEvent, type RuleMeta } from '../core/rule.ts';
import { ahpEventTypes } from './schemas.ts';
import { AHP_STREAM_RULES, DEFAULT_AHP_STREAM_OPTIONS, type AhpStreamOptions } from './stream/index.ts';
import { AHP_MESSAGE_RULES, validateAhpMessage, type AhpIssue } from './validate.ts';

/** Which transport binding an input is read as. */
export type AhpBinding = 'stdio' | 'http' | 'registration';

/** What kind of wire message a line is (from its JSON-RPC shape). */
export type AhpMessageKind = 'intercept-request' | 'observe-notification' | 'capabilities-request' | 'response' | 'error-response' | 'registration' | 'unknown';

/**
 * One AHP message as stream rules see it. `issues` are its per-message findings (already
 * reported); `wireValid` is true when no wire-root or JSON-RPC error was found, i.e. the
 * message's kind and ids can be trusted for correlation.
 */
export interface AhpMessage extends ParsedEvent {
  kind: AhpMessageKind;
  /** `params.event` of an intercept request or observe notification, when an object. */
  event?: Record<string, unknown>;
  issues: readonly AhpIssue[];
  wireValid: boolean;
  /** True when no per-message error at all was found. */
  valid: boolean;
}

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
  /** Run only these rules (framing and parse findings always appear); `undefined` runs all. */
  rules?: RuleSelection;
}

/** Build the AHP pipeline driver. */
export function ahpDriver(opts: AhpCheckOptions = {}): ProtocolDriver {
  const streamOpts: AhpStreamOptions = { ...DEFAULT_AHP_STREAM_OPTIONS, ...opts.stream };
  const bindingOf = opts.binding ?? ((s: string) => (s.endsWith('.json') ? 'http' : 'stdio'));
  return {
    name: 'ahp',
    cr: 'reject',
    createChecker(sink: FindingSink, stats: RunStats): ProtocolChecker {
      const runner = new RuleRunner<AhpMessage, AhpStreamOptions>([], AHP_STREAM_RULES, sink, streamOpts);
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
          if (msg.wireValid) runner.streamEvent(msg);
        },
        end() {
          runner.end();
        },
      };
    },
  };
}
