/**
 * A refusal for credentials in `aep live` (AEP-0003 §8.1): its own module, as the wire (client.ts) and the checks both
 * name it.
 */

/**
 * A request made with the run's credentials (or without, when none were given) refused for them: answered 401 or 403,
 * or a command refused `unauthorized`. AEP-0003 §8.1 lets an endpoint require a bearer token, so this is no finding:
 * the check that met it is skipped with {@link reason}, and the run says once which option to pass (README).
 */
export class CredentialsRefused extends Error {
  /** Why the check was skipped: what was refused, how, and what to do. */
  readonly reason: string;
  constructor(
    /** The request refused (`POST /events`, `GET /stream`, `the WebSocket upgrade at /socket`). */
    readonly what: string,
    /** How (`answered 401`, `refused with an error frame, code "unauthorized"`). */
    readonly how: string,
    /** Whether the run had a token. */
    readonly given: boolean,
  ) {
    const forbidden = /\b403\b/.test(how);
    const why = !given
      ? 'the endpoint requires credentials and no token was given (pass --token TOKEN or set AEP_TOKEN)'
      : forbidden
        ? 'the token given (--token or AEP_TOKEN) is not permitted there'
        : 'the endpoint refused the token given (--token or AEP_TOKEN)';
    super(`${what} was ${how}: ${why}`);
    this.reason = this.message;
  }
}

/** 401 and 403: a refusal for credentials (AEP-0003 §8.1 names no other). */
export const refusedForCredentials = (status: number | undefined) => status === 401 || status === 403;

/**
 * @throws CredentialsRefused when `answer` to a subscribe is an error frame coded `unauthorized` ("this connection may
 * not subscribe (§8)", AEP-0003 §6.5): what a check asks of the subscription is not seen.
 */
export function subscribeRefused(answer: unknown, given: boolean): void {
  const a = answer && typeof answer === 'object' ? (answer as { type?: unknown; code?: unknown }) : undefined;
  if (a?.type === 'error' && a.code === 'unauthorized')
    throw new CredentialsRefused(
      'a subscribe on the WebSocket duplex',
      'refused with an error frame, code "unauthorized"',
      given,
    );
}
