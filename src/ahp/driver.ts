/**
 * The AHP checker: duplicate names, the message-schema stage, per-event rules, then stream rules for a trusted JSON-RPC
 * shape.
 */
import { framingFinding, framingRules, type FramingSpecs } from '../core/jsonl.ts';
import { Engine, type EventEntry, isSelected, type RuleSelection } from '../core/engine.ts';
import { countDocument, type ProtocolChecker } from '../core/pipeline.ts';
import { findingAt, metaOf, type ParsedEvent, RULE_ERROR, type RuleCrashError, type RuleMeta } from '../core/rule.ts';
import { answerListEffects, insideValue } from './analyzers/effects-model.ts';
import type { CheckerOutput } from '../core/protocol.ts';
import { markOf } from '../core/mark.ts';
import { ruleType, type AhpBinding, type AhpMessage } from './message.ts';
import { AHP_EVENT_RULES, AHP_RULES, AHP_STREAM_RULES } from './rules/index.ts';
import {
  reportSchemaFindings,
  resolveRoot,
  schemaStage,
  type RootSpec,
  type SchemaStageFinding,
  type ValidateAhpOptions,
} from './schema/stage.ts';
import { AHP_SCHEMA_RULES } from './schema/rules.ts';
import { isObj, own } from '../core/value.ts';
import { ahpEventTypes } from './schema/schemas.ts';
import { AhpStreamModel, type AhpFacts, type AhpStreamState } from './analyzers/model.ts';
import { DEFAULT_AHP_STREAM_OPTIONS, type AhpStreamOptions } from './analyzers/options.ts';

export type { AhpBinding, AhpMessage, AhpMessageKind } from './message.ts';

const WIRE_ROOT = resolveRoot('message');
const REGISTRATION_ROOT = resolveRoot('registration');

/**
 * A JSON object with none of the members that make a JSON-RPC message: over HTTP, what a server may answer with a
 * non-success status (base/transports/http.md: "any status other than the successes specified above are operational
 * failures"), which a capture of bodies does not carry.
 */
const statusBody = (v: unknown): boolean =>
  isObj(v) && !own(v, 'jsonrpc') && !own(v, 'method') && !own(v, 'id') && !own(v, 'result');
const HTTP_STATUS_BODY: SchemaStageFinding = {
  rule: AHP_SCHEMA_RULES['ahp/http-status-unverifiable'],
  pointer: '',
  messageId: 'body',
};

/** AHP's framing citations (AHP-STDIO-001; one JSON-RPC object per HTTP body) replace AEP's JSONL binding's. */
const STDIO = 'AHP base/transports/stdio §Framing';
export const AHP_FRAMING_SPECS: FramingSpecs = {
  'jsonl/bom': `RFC 8259 §8.1; ${STDIO}`,
  'jsonl/blank-line': STDIO,
  'jsonl/invalid-utf8': `RFC 8259 §8.1; ${STDIO}`,
  'jsonl/binary-input': `RFC 8259 §8.1; ${STDIO}`,
  'jsonl/empty-input': `${STDIO}; base/transports/http §Request and response`,
  'jsonl/no-final-newline': STDIO,
  'jsonl/invalid-json': `RFC 8259; ${STDIO}`,
  'jsonl/not-object': `${STDIO}; base/transports/http §Request and response`,
  'json/duplicate-key': `${STDIO}; RFC 8259 §4`,
};

/** Every rule `ahp validate` can report. */
export function ahpRules(): RuleMeta[] {
  // AHP reads no protobuf (only AEP's --from otlp does)
  const framing = framingRules(AHP_FRAMING_SPECS).filter((r) => r.id !== 'jsonl/invalid-protobuf');
  return [...framing, ...AHP_RULES, RULE_ERROR].map(metaOf);
}

/** Known event types and methods (coverage statistics). */
export function knownAhpTypes(): string[] {
  return [...ahpEventTypes(), 'hooks/capabilities'];
}

/** Options of an AHP checker. */
export interface AhpCheckOptions {
  binding?: (source: string) => AhpBinding;
  stream?: Partial<AhpStreamOptions>;
  /** Which rules run (default: all); framing findings (`jsonl/*`, `json/*`) always appear. */
  rules?: RuleSelection;
  /** Deepest nesting accepted in an embedded MCP elicitation body (`--max-depth`; default that of a line, 256). */
  maxDepth?: number;
  /** Called once per run with the run's stream analyzers (read-only use: tests and diagnostics). */
  onStreamState?: (state: AhpStreamState) => void;
  /** Check each message alone against this root (and `params.event` against `eventSchema`), with no stream rules. */
  single?: ValidateAhpOptions;
}

const NO_STREAM = { state: undefined, observe: () => undefined };

/**
 * Without the schema's item findings inside a list value of `modify(content)` answering a user.elicitation.result
 * intercept: there any list is rejected as a list (ahp/modify-invalid), whatever its items (the schema stage cannot
 * tell that boundary from user.message.outbound, where the items are canonical messages).
 */
function answerListFindings(
  findings: SchemaStageFinding[],
  ev: ParsedEvent,
  model: AhpStreamModel,
): SchemaStageFinding[] {
  const v = ev.value;
  const effects = isObj(v) && isObj(v.result) ? v.result.effects : undefined;
  if (!Array.isArray(effects)) return findings;
  const event = model.state.correlation.awaited(ev as AhpMessage)?.host?.event;
  const lists = event === undefined ? undefined : answerListEffects(effects, event);
  if (!lists?.size) return findings;
  return findings.filter(
    (f) => !f.pointer.startsWith('/result/effects/') || ![...lists].some((i) => insideValue(f.pointer.slice(15), i)),
  );
}

/** A checker of one AHP stream. @throws Error when `opts.single` names an unknown root. */
export function createAhpChecker(opts: AhpCheckOptions, out: CheckerOutput): ProtocolChecker {
  const { sink, stats } = out;
  const bindingBy = opts.binding ?? ((s: string) => (s.endsWith('.json') ? 'http' : 'stdio'));
  // one input's lines share a source: its binding is worked out once
  let lastSource: string | undefined;
  let lastBinding: AhpBinding = 'stdio';
  const bindingOf = (s: string): AhpBinding => {
    if (s !== lastSource) {
      lastBinding = bindingBy(s);
      lastSource = s;
    }
    return lastBinding;
  };
  const crash = (e: RuleCrashError) => out.crash(e);
  let root: RootSpec | undefined;
  let eventSchema: RootSpec | undefined;
  let engine: Engine<AhpMessage, AhpFacts | undefined, AhpStreamState | undefined>;
  let model: AhpStreamModel | undefined;
  if (opts.single) {
    root = resolveRoot(opts.single.root ?? 'message');
    eventSchema = opts.single.eventSchema !== undefined ? resolveRoot(opts.single.eventSchema) : undefined;
    if (eventSchema && eventSchema.kind !== 'event')
      throw new Error(`eventSchema ${JSON.stringify(opts.single.eventSchema)} does not name an event schema`);
    engine = new Engine<AhpMessage, undefined, undefined>(AHP_EVENT_RULES, [], NO_STREAM, sink, opts.rules, crash);
  } else {
    model = new AhpStreamModel({ ...DEFAULT_AHP_STREAM_OPTIONS, ...opts.stream });
    opts.onStreamState?.(model.state);
    engine = new Engine<AhpMessage, AhpFacts, AhpStreamState>(
      AHP_EVENT_RULES,
      AHP_STREAM_RULES,
      model,
      sink,
      opts.rules,
      crash,
    );
  }
  // per event type (or method): its count and its per-event rules, found by one lookup a message; into stats.types
  // by sync()
  const byType = new Map<string, { n: number; rules: readonly EventEntry<AhpMessage>[] }>();
  const sync = (): void => {
    for (const [t, e] of byType) stats.types.set(t, e.n);
  };
  stats.sync = sync;
  const stageOpts = {
    ...(eventSchema ? { eventSchema } : {}),
    ...(opts.maxDepth !== undefined ? { maxDepth: opts.maxDepth } : {}),
  };
  return {
    onEvent(ev) {
      const binding = bindingOf(ev.source);
      if (binding === 'registration') countDocument(stats);
      for (let i = 0; i < ev.duplicates.length; i++) {
        const d = ev.duplicates[i]!;
        sink(
          framingFinding(
            'json/duplicate-key',
            {
              source: ev.source,
              line: ev.line,
              column: d.index + 1,
              byteOffset: ev.byteOffset + Buffer.byteLength(ev.text.slice(0, d.index)),
              pointer: d.pointer,
            },
            'message',
            { key: d.key },
          ),
        );
      }
      let findings = schemaStage(ev, root ?? (binding === 'registration' ? REGISTRATION_ROOT : WIRE_ROOT), stageOpts);
      if (binding === 'http' && !root && findings.length > 0 && statusBody(ev.value)) findings = [HTTP_STATUS_BODY];
      if (model && findings.length > 0) findings = answerListFindings(findings, ev, model);
      reportSchemaFindings(findings, ev, sink, opts.rules);
      const msg = ev as AhpMessage;
      msg.binding = binding;
      const t =
        typeof msg.event?.type === 'string'
          ? msg.event.type
          : msg.kind === 'capabilities-request'
            ? 'hooks/capabilities'
            : undefined;
      let typed: readonly EventEntry<AhpMessage>[] | undefined;
      if (t) {
        let e = byType.get(t);
        if (e === undefined) byType.set(t, (e = { n: 0, rules: engine.eventRulesOf(t) }));
        e.n++;
        if (t === ruleType(msg)) typed = e.rules;
      }
      // per-event rules see objects only (nothing else carries an event)
      const v: unknown = ev.value;
      if (v !== null && typeof v === 'object' && !Array.isArray(v))
        engine.checkEvent(msg, typed ?? engine.eventRulesOf(ruleType(msg)));
      if (msg.wireValid && !root) engine.streamEvent(msg);
      // a message the stream model cannot take (ids untrustworthy) may have been any request or parent it needs
      else if (model) {
        model.unreadable(markOf(ev));
        if (msg.kind === 'unknown') model.otherRequest(msg);
      }
    },
    onUnreadable(at) {
      model?.unreadable(at);
    },
    emptyDocument(source) {
      // no body is what an accepted observe notification's response must have (base/transports/http.md), a request
      // or a 200 answer never has: the status and direction say which, and a capture of bodies has neither
      if (root || bindingOf(source) !== 'http') return false;
      const rule = AHP_SCHEMA_RULES['ahp/http-status-unverifiable'];
      if (isSelected(opts.rules, rule.id)) sink(findingAt(rule, { source, byteOffset: 0 }, 'empty'));
      return true;
    },
    end() {
      sync();
      engine.end();
    },
  };
}
