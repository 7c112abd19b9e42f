/** The facts of one AHP message, by analyzer, as the stream rules read them, and the bits that gate rules on them. */
import type { AhpMessage } from '../message.ts';
import type { Mark } from '../../core/mark.ts';
import type { ChangeFacts } from './changes.ts';
import type { ConfigFacts } from './config.ts';
import type { ResponseFacts } from './correlation.ts';
import type { DecisionFacts } from './decisions.ts';
import type { AdvertisementFacts, ManifestFacts } from './discovery.ts';
import type { EffectsFacts } from './edit-context.ts';
import type { ElicitationFacts } from './elicitation-facts.ts';
import type { IdentityFacts } from './identity.ts';
import type { LineageFacts } from './lineage.ts';
import type { ObservationFacts } from './observations.ts';
import type { OccurrenceFacts } from './occurrences.ts';
import type { SessionOrderFacts } from './session-order.ts';
import type { CallOrderFacts } from './call-order.ts';

/** Facts about the event of an intercept request or observe notification, by analyzer. */
export type EventFacts = IdentityFacts &
  LineageFacts &
  ChangeFacts &
  ConfigFacts &
  ElicitationFacts &
  DecisionFacts &
  OccurrenceFacts &
  ObservationFacts &
  SessionOrderFacts &
  CallOrderFacts;

/** Facts about one message, computed once against the state before it. */
export interface AhpFacts {
  msg: AhpMessage;
  event?: EventFacts;
  response?: ResponseFacts;
  /** A matched intercept success with usable capabilities: its effects applied in the request's host context. */
  effects?: EffectsFacts;
  /** A new intercept request whose advertisement claims more than it may (discovery.ts). */
  advertisement?: AdvertisementFacts;
  /** A capabilities manifest of a response (discovery.ts). */
  manifest?: ManifestFacts;
  /** A request reusing the id of a pending request of the other method (correlation.ts). */
  idPending?: { prior: Mark; method: string };
}

/** The facts a stream rule can be gated `on`, one bit each (see {@link AhpStreamModel.presence}). */
export const FACT_BITS = {
  response: 1,
  effects: 2,
  reuse: 4,
  cycle: 8,
  configAfterDenied: 16,
  /** Either order of a change pair: the after's own mismatch, or a late before's (changeBeforeMismatch). */
  changeAfterMismatch: 32,
  pair: 64,
  content: 128,
  mode: 256,
  deniedCallRan: 512,
  failedCallRan: 1024,
  callMismatch: 2048,
  parentIsCall: 4096,
  changeAfterDenied: 8192,
  interceptAfterDenial: 16384,
  advertisement: 32768,
  manifest: 65536,
  occurrence: 131072,
  leak: 262144,
  startNotFirst: 524288,
  permissionFirst: 1048576,
  idPending: 2097152,
  unreflected: 4194304,
  observedFirst: 8388608,
} as const;

/** The {@link FACT_BITS} of the facts `f` holds (the engine's gate of the rules `on` them). */
export function presenceOf(f: AhpFacts): number {
  const e = f.event;
  return (
    (f.response !== undefined ? FACT_BITS.response : 0) |
    (f.effects !== undefined ? FACT_BITS.effects : 0) |
    (f.advertisement !== undefined ? FACT_BITS.advertisement : 0) |
    (f.manifest !== undefined ? FACT_BITS.manifest : 0) |
    (f.idPending !== undefined ? FACT_BITS.idPending : 0) |
    (e === undefined
      ? 0
      : (e.reuse !== undefined ? FACT_BITS.reuse : 0) |
        (e.cycle !== undefined ? FACT_BITS.cycle : 0) |
        (e.configAfterDenied !== undefined ? FACT_BITS.configAfterDenied : 0) |
        (e.changeAfterMismatch !== undefined || e.changeBeforeMismatch !== undefined
          ? FACT_BITS.changeAfterMismatch
          : 0) |
        (e.pair !== undefined ? FACT_BITS.pair : 0) |
        (e.content !== undefined ? FACT_BITS.content : 0) |
        (e.mode !== undefined ? FACT_BITS.mode : 0) |
        (e.deniedCallRan !== undefined ? FACT_BITS.deniedCallRan : 0) |
        (e.failedCallRan !== undefined ? FACT_BITS.failedCallRan : 0) |
        (e.callMismatch !== undefined ? FACT_BITS.callMismatch : 0) |
        (e.parentIsCall !== undefined ? FACT_BITS.parentIsCall : 0) |
        (e.changeAfterDenied !== undefined ? FACT_BITS.changeAfterDenied : 0) |
        (e.interceptAfterDenial !== undefined ? FACT_BITS.interceptAfterDenial : 0) |
        (e.occurrence !== undefined ? FACT_BITS.occurrence : 0) |
        (e.leak !== undefined ? FACT_BITS.leak : 0) |
        (e.unreflected !== undefined ? FACT_BITS.unreflected : 0) |
        (e.startNotFirst !== undefined ? FACT_BITS.startNotFirst : 0) |
        (e.permissionFirst !== undefined ? FACT_BITS.permissionFirst : 0) |
        (e.observedFirst !== undefined ? FACT_BITS.observedFirst : 0))
  );
}

/** Event facts with every analyzer's member made (one object shape for the rules' reads). */
export function emptyEventFacts(): EventFacts {
  return {
    first: false,
    reuse: undefined,
    cycle: undefined,
    lateChildren: undefined,
    configAfterDenied: undefined,
    changeAfterMismatch: undefined,
    changeBeforeMismatch: undefined,
    pair: undefined,
    content: undefined,
    mode: undefined,
    deniedCallRan: undefined,
    failedCallRan: undefined,
    callMismatch: undefined,
    parentIsCall: undefined,
    changeAfterDenied: undefined,
    interceptAfterDenial: undefined,
    occurrence: undefined,
    leak: undefined,
    unreflected: undefined,
    startNotFirst: undefined,
    permissionFirst: undefined,
    observedFirst: undefined,
  };
}

/** `e` with every member as {@link emptyEventFacts} makes it (the model reuses one a run). */
export function clearEventFacts(e: EventFacts): EventFacts {
  e.first = false;
  e.reuse = undefined;
  e.cycle = undefined;
  e.lateChildren = undefined;
  e.configAfterDenied = undefined;
  e.changeAfterMismatch = undefined;
  e.changeBeforeMismatch = undefined;
  e.pair = undefined;
  e.content = undefined;
  e.mode = undefined;
  e.deniedCallRan = undefined;
  e.failedCallRan = undefined;
  e.callMismatch = undefined;
  e.parentIsCall = undefined;
  e.changeAfterDenied = undefined;
  e.interceptAfterDenial = undefined;
  e.occurrence = undefined;
  e.leak = undefined;
  e.unreflected = undefined;
  e.startNotFirst = undefined;
  e.permissionFirst = undefined;
  e.observedFirst = undefined;
  return e;
}
