/**
 * What an `aep live` run found: its own module so the wire (client.ts, whose LiveConnectError carries one) need not
 * import the checks that use the wire.
 */
import type { CheckOutcome } from '../core/check-outcome.ts';
import type { Finding } from '../core/finding.ts';
import type { LiveCheck } from './rules.ts';

/** What `checkEndpoint` (src/live/check.ts) found. */
export interface LiveResult {
  findings: Finding[];
  /** Every Event the endpoint delivered to our subscribers, as its JSON text, in arrival order (each text once). */
  delivered: string[];
  /** The checks run, and those skipped (of those asked for). */
  ran: LiveCheck[];
  skipped: LiveCheck[];
  /** Every check tried, in order (discovery always), with its status, its skip reason and its findings' counts. */
  checks: CheckOutcome[];
  /**
   * Present when a check was skipped because the endpoint refused the run's credentials, or their absence (401, 403,
   * AEP-0003 §8.1): those checks, and the first refusal in words (which option to pass). The CLI exits 2 for it.
   */
  credentials?: { skipped: LiveCheck[]; reason: string };
}
