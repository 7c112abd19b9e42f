/** The library's protocol names, their typed options and their definitions (the table is src/run/protocols.ts). */
import type { AepCaptureLevel } from '../aep/schema/registry.ts';
import type { AepStreamOptions } from '../aep/analyzers/options.ts';
import type { AhpBinding } from '../ahp/message.ts';
import type { AhpStreamOptions } from '../ahp/analyzers/options.ts';
import type { CommonOptions } from '../core/protocol.ts';
import type { AepRuleId, AhpRuleId } from '../generated/rule-ids.ts';

export { protocolDefinition } from '../run/protocols.ts';
export { optionsFromFlags } from '../core/protocol.ts';
export type { CommonOptions, Protocol, ProtocolDefinition } from '../core/protocol.ts';

/** AEP options: the rule selection and the stream caps (`aep validate --rule`, `--max-*`, `--ack-window`). */
export interface AepOptions extends CommonOptions {
  /** Run only these rules; framing findings (`jsonl/*`, `json/*`) always appear. Default: all. */
  rules?: readonly AepRuleId[];
  /** Stream state caps and the ack window (README §Options of `validate`). */
  stream?: Partial<AepStreamOptions>;
  /** Read bridge output (`aep validate --from`, AEP-0005): CloudEvents or OTLP/JSON logs, mapped back and checked as AEP. */
  from?: 'cloudevents' | 'otlp';
  /** With `from: 'otlp'`: the exporter's capture ceiling (AEP-0005 §3.3; default `metadata`). */
  maxCapture?: AepCaptureLevel;
  /** `aep validate --profile aep-0007`: also check the message and stream sub-profile (AEP-0007, a Draft). */
  profile?: 'aep-0007';
}

/** AHP options: the rule selection, the stream caps and the binding (`ahp validate --rule`, `--max-*`, `--binding`). */
export interface AhpOptions extends CommonOptions {
  /** Run only these rules; framing findings (`jsonl/*`, `json/*`) always appear. Default: all. */
  rules?: readonly AhpRuleId[];
  /** Stream state caps (README §Options of `validate`). */
  stream?: Partial<AhpStreamOptions>;
  /** Default: by input name, as the CLI (`*.registration.json` registration, other `.json` HTTP, else stdio JSONL). */
  binding?: AhpBinding;
}

/** The options of protocol `P`. */
export type OptionsFor<P extends 'aep' | 'ahp'> = P extends 'aep' ? AepOptions : AhpOptions;
