/** The facts the elicitation analyzer (elicitation.ts) gives the rules, and what a request tells its result. */
import type { Mark } from '../../core/mark.ts';
import type { AnswerProblem } from './form-answer.ts';

/** The form verdict an elicitation request row keeps: `parsed` (a usable `requestedSchema`), `url`, `view`, `invalid` or `absent`. */
export type FormVerdict = 'parsed' | 'url' | 'view' | 'invalid' | 'absent';

/** What an elicitation request event tells its result. */
export interface ElicitRequestInfo {
  server: unknown;
  mode: unknown;
  /** The form behind it: `parsed` (`schema` holds `requestedSchema`), `url` (none), `view`, `invalid` or `absent`. */
  form: FormVerdict;
  /** `requestedSchema` of a `parsed` form while still held (released once a result's answer was checked). */
  schema?: unknown;
  released?: boolean;
}

/** The elicitation request a result answers (first occurrence of the result). */
export interface PairFacts {
  /** `unknown`: the parent was not seen (yet); `not-request`: it is another event type. */
  parent: 'absent' | 'unknown' | 'not-request' | 'request';
  parentType?: string;
  parentAt?: Mark;
  request?: ElicitRequestInfo;
  /** `absent`: the one earlier open request of the same source, session, server and mode. */
  candidate?: Mark;
  sessionMismatch?: 'other' | 'absent';
  /** `unknown`: an earlier user.elicitation.request with the parent's id from another source. */
  otherSource?: Mark;
  /** `request`: an earlier result (another event) of the same request that answered it otherwise. */
  answered?: Mark;
}

/** The answer of an accepted form result checked against the request's form. */
export interface ContentFacts {
  partPointer: string;
  /** `checked`: `problems` lists what fails; otherwise why the answer cannot be verified. */
  status: 'checked' | 'no-request' | 'request-view' | 'request-invalid' | 'request-absent' | 'request-released';
  problems: AnswerProblem[];
  request?: Mark;
  /** The accepted result carries no `content` member (judged as the empty answer). */
  absent?: boolean;
  /** `request-released`: results the memory budget left unverified so far, this one included. */
  lost?: number;
}

/** An elicitation event whose mode is not among the advertised ones. */
export interface ModeFacts {
  mode: string;
  advertised: string[];
  by: 'request' | 'manifest';
  at?: Mark;
  /** No `elicitation` member at all (absent means no mode: interaction-payloads.md §MCP elicitation binding). */
  absent?: boolean;
}

/** Elicitation facts of an event. */
export interface ElicitationFacts {
  pair?: PairFacts;
  /** user.elicitation.result with an accepted form answer not checked before. */
  content?: ContentFacts;
  mode?: ModeFacts;
}
