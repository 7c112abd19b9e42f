/** `checkEndpoint` as the library exports it: its options checked as every entry point's are (check-options.ts). */
import { nearestWord } from '../core/nearest.ts';
import { checkEndpoint as check, type LiveOptions, type LiveResult } from '../live/check.ts';
import { BACKPRESSURE_MAX_MIB } from '../live/backpressure-rules.ts';
import { LIVE_CHECKS } from '../live/rules.ts';
import { checkChoice, checkKeys, checkObjectArg, described, type Kind } from './check-options.ts';

const LIVE: Record<keyof LiveOptions, Kind> = {
  token: 'string',
  checks: 'strings',
  destructive: 'boolean',
  identity: 'string',
  timeoutMs: 'positive',
  heartbeatMs: 'positive',
  backpressureMib: 'positive',
  control: 'object',
  onCheck: 'function',
  signal: 'signal',
};

const CONTROL: Record<keyof NonNullable<LiveOptions['control']>, Kind> = {
  session: 'string',
  ackWindowMs: 'positive',
  accepts: 'string',
  undeclared: 'string',
  cancelRun: 'string',
  source: 'string',
};

/** Check the options of {@link checkEndpoint}. @throws TypeError naming the option or check, and the nearest known name */
export function checkLiveOptions(options: unknown): void {
  if (options === undefined) return;
  checkObjectArg(options, 'the options');
  checkKeys(options, LIVE, '');
  const o = options as LiveOptions;
  if (o.control !== undefined) checkKeys(o.control, CONTROL, 'control.');
  for (const c of o.checks ?? [])
    if (!(LIVE_CHECKS as readonly string[]).includes(c)) {
      const near = nearestWord(c, LIVE_CHECKS, true);
      throw new TypeError(
        `unknown check ${JSON.stringify(c)} in option checks${near ? ` (did you mean ${near}?)` : ''}: one of ${LIVE_CHECKS.join(', ')}`,
      );
    }
  if (o.backpressureMib !== undefined && o.backpressureMib > BACKPRESSURE_MAX_MIB)
    throw new TypeError(`option backpressureMib must be at most ${BACKPRESSURE_MAX_MIB}, not ${o.backpressureMib}`);
  if (o.identity !== undefined) checkChoice('identity', o.identity, ['floor', 'strict']);
}

/** Check the http(s) endpoint `base` (README §Check a running endpoint). @throws TypeError, LiveConnectError */
export async function checkEndpoint(base: string | URL, options?: LiveOptions): Promise<LiveResult> {
  if (typeof base !== 'string' && !(base instanceof URL))
    throw new TypeError(`the endpoint must be an http: or https: URL (a string or URL), not ${described(base)}`);
  checkLiveOptions(options);
  return check(base, options);
}
