/**
 * The live rules' cases, as the requirements matrix needs them (test/meta/requirements.test.ts): a live rule judges
 * a running service, so its passing case is the compliant endpoint of test/live/endpoint.ts and its failing case a
 * broken variant of it, run by test/live/live.test.ts, which fails exactly the rules listed here and no other.
 */
import type { LiveRuleId } from '../../src/live/rules.ts';
import type { Broken } from './endpoint.ts';

/**
 * One broken variant and the rules it fails; `destructive` runs the opt-in checks too; `control` marks a case
 * test/live/control.test.ts runs, with a token and a --control-session.
 */
export interface LiveCase {
  variant: Broken;
  rules: LiveRuleId[];
  destructive?: boolean;
  control?: boolean;
}

/** Every broken variant of the test endpoint, with the rules it fails. */
export const LIVE_CASES: readonly LiveCase[] = [
  { variant: 'no-discovery', rules: ['aep/live-discovery', 'aep/live-skipped'] },
  { variant: 'no-well-known', rules: ['aep/live-well-known'] },
  { variant: 'no-version-gate', rules: ['aep/live-version-gate'] },
  { variant: 'accepts-invalid', rules: ['aep/live-invalid-envelope'] },
  { variant: 'ingest-200', rules: ['aep/live-ingest'] },
  { variant: 'sse-no-id', rules: ['aep/live-fanout'] },
  // it would also fail byte-identity, which compares the same Events' bytes: run without the opt-in checks
  { variant: 'rewrites', rules: ['aep/live-delivery-identity'] },
  { variant: 'ignores-filter', rules: ['aep/live-filter'] },
  { variant: 'up-levels', rules: ['aep/live-capture-ceiling'] },
  // the validate rules catch it in the recorded Events too (aep/capture-level, test/live/live.test.ts)
  { variant: 'keeps-content', rules: ['aep/live-capture-ceiling'] },
  { variant: 'resume-inclusive', rules: ['aep/live-resume'] },
  { variant: 'sse-from-inclusive', rules: ['aep/live-resume'] },
  { variant: 'ws-from-inclusive', rules: ['aep/live-resume'] },
  { variant: 'replay-all-exhausted', rules: ['aep/live-replay-all'] },
  { variant: 'hello-two-versions', rules: ['aep/live-hello'] },
  { variant: 'closes-on-refusal', rules: ['aep/live-subscribe-refusal'] },
  { variant: 'closes-on-unknown-frame', rules: ['aep/live-unknown-frame'] },
  { variant: 'roster-synthesizes', rules: ['aep/live-roster'] },
  { variant: 'exhausted-late', rules: ['aep/live-eviction'], destructive: true },
  { variant: 'reserializes', rules: ['aep/live-byte-identity'], destructive: true },
  { variant: 'hangs', rules: ['aep/live-timeout', 'aep/live-skipped'] },
  { variant: 'no-socket', rules: ['aep/live-skipped'] },
  { variant: 'control-unauthenticated', rules: ['aep/live-control-auth-gate'], control: true },
  { variant: 'control-no-route-event', rules: ['aep/live-control-no-route'], control: true },
  { variant: 'control-slow-ack', rules: ['aep/live-control-ack'], control: true },
  { variant: 'control-dedupe-fresh', rules: ['aep/live-control-dedupe'], control: true },
  { variant: 'control-accepts-undeclared', rules: ['aep/live-control-unsupported'], control: true },
  { variant: 'control-cancel-uncaused', rules: ['aep/live-control-cancel'], control: true },
];
