import { Engine, selectedSink, type EventEntry, type RuleSelection } from '../core/engine.ts';
import { JSONL_RULES, type FramingSpecs } from '../core/jsonl.ts';
import type { ProtocolChecker } from '../core/pipeline.ts';
import type { CheckerOutput } from '../core/protocol.ts';
import { metaOf, RULE_ERROR, type RuleMeta } from '../core/rule.ts';
import type { AepStreamState } from './analyzers/model.ts';
import { AepStreamModel } from './analyzers/model.ts';
import { DEFAULT_AEP_STREAM_OPTIONS, type AepStreamOptions } from './analyzers/options.ts';
import { AEP_EVENT_RULES, AEP_RULES, AEP_STREAM_RULES } from './rules/index.ts';
import type { AepEvent } from './event.ts';
import { checkAepEvent, identityOfRejected } from './schema/check.ts';
import { typeInfo, type AepTypeInfo } from './schema/type-info.ts';
import { knownAepTypes } from './schema/validators.ts';

/** Options of an AEP run. */
export interface AepCheckOptions {
  stream?: Partial<AepStreamOptions>;
  /** Which rules run (default: all); framing findings (`jsonl/*`, `json/*`) always appear. */
  rules?: RuleSelection;
  /** Called with each run's stream analyzers as the run starts (tests and diagnostics; read only). */
  onStreamState?: (state: AepStreamState) => void;
  /** `aep-0007`: the message and stream sub-profile (AEP-0007, a Draft) is checked (src/aep/subprofile.ts). */
  profile?: string;
}

/** Every rule `aep validate` can report, in catalogue order: framing, then {@link AEP_RULES}, then `internal/rule-error`. */
export function aepRules(): RuleMeta[] {
  // jsonl/carriage-return belongs to AHP's stdio binding: AEP accepts CRLF and a lone CR is data
  return [
    ...JSONL_RULES.filter((r) => r.id !== 'jsonl/carriage-return').map(
      (r) => ({ ...r, spec: AEP_FRAMING_SPECS[r.id] ?? r.spec }) as RuleMeta,
    ),
    ...AEP_RULES,
    RULE_ERROR,
  ].map(metaOf);
}

export { knownAepTypes };

/** AEP's own framing citations: a repeated envelope attribute breaks the envelope (AEP-0001 §5). */
export const AEP_FRAMING_SPECS: FramingSpecs = { 'json/duplicate-key': 'AEP-0001 §5; RFC 8259 §4' };

/**
 * The rules that check AEP-0001 §5.1's RECOMMENDED forms, run only with `--forms recommended` (or when named by
 * `--rule`): a RECOMMENDED form is a style a user opts into, not a verdict every stream gets, and the upstream golden
 * stream (which must stay accepted) uses neither (README §Decisions on capture, digests and redaction).
 */
export const RECOMMENDED_FORM_RULES: readonly string[] = ['aep/id-ulid', 'aep/source-form'];

let requiredOnly: ReadonlySet<string> | undefined;

/** The rules of a run that names none: all, but the {@link RECOMMENDED_FORM_RULES} only with `--forms recommended`. */
function defaultSelection(forms: AepStreamOptions['forms']): ReadonlySet<string> | undefined {
  if (forms === 'recommended') return undefined;
  return (requiredOnly ??= new Set(
    aepRules()
      .map((r) => r.id)
      .filter((id) => !RECOMMENDED_FORM_RULES.includes(id)),
  ));
}

/**
 * A checker of one AEP stream: schema stage, per-event rules if the payload passed, stream model and rules.
 * @throws TypeError when a stream rule is gated on a fact the model lacks.
 */
export function createAepChecker(opts: AepCheckOptions, out: CheckerOutput): ProtocolChecker {
  const streamOpts: AepStreamOptions = {
    ...DEFAULT_AEP_STREAM_OPTIONS,
    ...opts.stream,
    ...(opts.profile ? { profile: opts.profile } : {}),
  };
  const selection = opts.rules ?? defaultSelection(streamOpts.forms);
  const { sink, stats } = out;
  const model = new AepStreamModel(streamOpts);
  opts.onStreamState?.(model.state);
  const engine = new Engine(AEP_EVENT_RULES, AEP_STREAM_RULES, model, sink, selection, (e) => out.crash(e));
  // envelope, type and payload findings are rules too: a selection filters them (framing stays)
  const checkSink = selectedSink(sink, selection);
  // events per type, by the type's info (no lookup by the type's text an event); into stats.types by sync()
  const counts: number[] = [];
  // the per-event rules that judge each type, by the type's info
  const ruleLists: (readonly EventEntry<AepEvent>[])[] = [];
  const counted: AepTypeInfo[] = [];
  const sync = (): void => {
    const sums = new Map<string, number>();
    for (const info of counted) sums.set(info.type, (sums.get(info.type) ?? 0) + counts[info.index]!);
    for (const [t, n] of sums) stats.types.set(t, n);
  };
  stats.sync = sync;
  return {
    onEvent(ev) {
      const t = ev.value.type;
      let info: AepTypeInfo | undefined;
      if (typeof t === 'string') {
        info = typeInfo(t);
        const n = counts[info.index];
        if (n === undefined) {
          counts[info.index] = 1;
          counted.push(info);
        } else counts[info.index] = n + 1;
      }
      const aev = checkAepEvent(ev, checkSink, info, opts.profile);
      if (!aev) {
        // a refused event whose identity can still be trusted reaches the identity check only
        const id = identityOfRejected(ev);
        if (id) engine.streamEvent(id);
        return;
      }
      if (aev.payloadValid) {
        const i = aev.info!.index;
        engine.checkEvent(aev, (ruleLists[i] ??= engine.eventRulesFor(aev.info!.type)));
      }
      engine.streamEvent(aev);
    },
    onUnreadable(at) {
      model.unreadableLine(at);
    },
    end() {
      sync();
      engine.end();
    },
  };
}
