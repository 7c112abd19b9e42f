/**
 * The `aep live` rules of AEP-0003 §8.1, trust per binding: TLS off-host (judged from the URLs by the discovery check,
 * http-checks.ts) and the bearer token an event surface asks for (token-checks.ts), one token rule per row of the
 * table, since the two rows differ in keyword and so in severity. rules.ts places them in check order.
 */
import type { LiveRule } from './rule-types.ts';

/** TLS on an off-host binding. */
export const TLS_RULE: LiveRule = {
  id: 'aep/live-tls-off-host',
  severity: 'error',
  description:
    'An off-host binding uses TLS: neither the base URL nor an endpoint the discovery document names is http: or ws: on a host other than localhost or a loopback address.',
  detail:
    'Judged from the URLs alone, so an endpoint on another origin is judged without being contacted. The bearer token the same row requires of an off-host binding is aep/live-token-off-host.',
  spec: 'AEP-0003 §8.1; AEP-0001 §12',
  quote: 'any off-host binding | TLS REQUIRED',
  messages: {
    plain: 'The {name} endpoint {url:json} is off-host over {scheme}, without TLS; any off-host binding REQUIRES TLS.',
  },
};

const PROBE =
  'The probe is one POST of a valid Event to the events endpoint, one SSE subscription to the stream endpoint and, on a WebSocket opened the same way, a consumer hello and one subscribe, each with no Authorization header and no access_token: with --token it is an extra request, without one it is the request every check of the run makes. A surface that answers 401 or 403 passes, as does a WebSocket refused at the upgrade (401, 403, closed), at hello, or by an error frame coded "unauthorized" (AEP-0003 §6.5); an answer neither accepting nor refusing for credentials (another status, an SSE head held back until a first message, no answer) is no verdict, and the check is skipped when no surface gives one. Control on the duplex is aep/live-control-auth-gate\'s.';

/** The token rules, in check order. */
export const TOKEN_RULES: readonly LiveRule[] = [
  {
    id: 'aep/live-token-localhost',
    severity: 'warning',
    description:
      'On localhost or a loopback address, the event surfaces (POST ingest, the SSE stream, a WebSocket subscribe) refuse a request that carries no bearer token.',
    detail: `A warning: the row says RECOMMENDED. A development endpoint on 127.0.0.1 without a token gets it. ${PROBE}`,
    spec: 'AEP-0003 §8.1',
    quote: 'bearer token RECOMMENDED',
    messages: {
      post: '{what} was accepted ({status}) without a bearer token; on {host}, a localhost binding, a bearer token is RECOMMENDED.',
      stream:
        '{what} was answered 200 text/event-stream without a bearer token; on {host}, a localhost binding, a bearer token is RECOMMENDED.',
      socket:
        '{what} was answered "subscribed" without a bearer token; on {host}, a localhost binding, a bearer token is RECOMMENDED.',
    },
  },
  {
    id: 'aep/live-token-off-host',
    severity: 'error',
    description:
      'On a host other than localhost or a loopback address, the event surfaces (POST ingest, the SSE stream, a WebSocket subscribe) refuse a request that carries no bearer token or stronger credentials.',
    detail: `Off-host is decided as for aep/live-tls-off-host, which judges the TLS half of the row. "Or stronger": an endpoint that authenticates at another layer (mutual TLS, a connection refused or reset without credentials) refuses the unauthenticated request, which is all this rule asks; only a request accepted without credentials fails it. ${PROBE}`,
    spec: 'AEP-0003 §8.1',
    quote: 'TLS REQUIRED + bearer token (or stronger) REQUIRED',
    messages: {
      post: '{what} was accepted ({status}) without a bearer token; on {host}, an off-host binding, a bearer token (or stronger) is REQUIRED.',
      stream:
        '{what} was answered 200 text/event-stream without a bearer token; on {host}, an off-host binding, a bearer token (or stronger) is REQUIRED.',
      socket:
        '{what} was answered "subscribed" without a bearer token; on {host}, an off-host binding, a bearer token (or stronger) is REQUIRED.',
    },
  },
];
