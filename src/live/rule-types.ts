/** The shape of an `aep live` rule and its ids (rules.ts lists the rules; a leaf, so the rule files import it). */
import type { Severity } from '../core/finding.ts';
import type { MessageTemplates } from '../core/message.ts';

/** One live rule: id, severity, description, citation, message templates. */
export interface LiveRule {
  id: LiveRuleId;
  severity: Severity;
  description: string;
  /** What the one-sentence description leaves out. */
  detail?: string;
  spec: string;
  /** A short literal quote of the cited sentence. */
  quote?: string;
  messages: MessageTemplates;
}

/** Every rule id `aep live` can report. */
export type LiveRuleId =
  | 'aep/live-discovery'
  | 'aep/live-well-known'
  | 'aep/live-tls-off-host'
  | 'aep/live-version-gate'
  | 'aep/live-invalid-envelope'
  | 'aep/live-ingest'
  | 'aep/live-fanout'
  | 'aep/live-redelivery-hop'
  | 'aep/live-delivery-identity'
  | 'aep/live-filter'
  | 'aep/live-capture-ceiling'
  | 'aep/live-resume'
  | 'aep/live-buffer-advertised'
  | 'aep/live-replay-all'
  | 'aep/live-roster'
  | 'aep/live-eviction'
  | 'aep/live-byte-identity'
  | 'aep/live-hello'
  | 'aep/live-subscribe-refusal'
  | 'aep/live-limit-detail'
  | 'aep/live-unknown-frame'
  | 'aep/live-binary-frame'
  | 'aep/live-unsubscribe'
  | 'aep/live-subscriptions'
  | 'aep/live-content-type'
  | 'aep/live-oversize'
  | 'aep/live-control-auth-gate'
  | 'aep/live-control-no-route'
  | 'aep/live-control-ambiguous'
  | 'aep/live-control-ack'
  | 'aep/live-control-dedupe'
  | 'aep/live-control-unsupported'
  | 'aep/live-control-cancel'
  | 'aep/live-timeout'
  | 'aep/live-skipped';
