/** The shape of an `aep live` rule and its ids (rules.ts lists the rules; a leaf, so the rule files import it). */
import type { Severity } from '../core/finding.ts';
import type { MessageTemplates } from '../core/message.ts';
import type { LiveRuleId } from '../generated/rule-ids.ts';

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

/** Every rule id `aep live` can report: generated from LIVE_RULES by `npm run rules:gen`, so the list is said once. */
export type { LiveRuleId } from '../generated/rule-ids.ts';
