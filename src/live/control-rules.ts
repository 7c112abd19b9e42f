/**
 * The control rules of `aep live` (AEP-0004 over the AEP-0003 §3.5 WebSocket duplex), checked by
 * src/live/control-checks.ts. The target checks send real commands, so they run only against the session
 * `--control-session` names; the cancel check only with `--control-cancel RUN`.
 */
import type { LiveRule } from './rule-types.ts';

/** The control check names, in order (after the WebSocket checks). */
export const CONTROL_CHECKS = [
  'control-auth-gate',
  'control-no-route',
  'control-ambiguous',
  'control-ack',
  'control-dedupe',
  'control-unsupported',
  'control-cancel',
] as const;

/** The control rules, in check order. */
export const CONTROL_RULES: readonly LiveRule[] = [
  {
    id: 'aep/live-control-auth-gate',
    severity: 'error',
    description:
      'Control never flows on an unauthenticated duplex: a command sent on a WebSocket opened without credentials is refused and reaches no target.',
    detail:
      'The refusal may come at the upgrade, at hello, or as an error frame with the command id as cause, of any code. Without --control-session, the would-be target is an emitter connection of the run, opened without credentials too, that claims the probed session and declares the probe type.',
    spec: 'AEP-0004 §4 #1-#2; AEP-0003 §8.1',
    messages: {
      reached: 'A command sent on an unauthenticated WebSocket reached the target, which answered {got}.',
      delivered:
        'A command sent on an unauthenticated WebSocket was delivered to the connection claiming {session:json}: control flowed on an unauthenticated duplex.',
    },
  },
  {
    id: 'aep/live-control-no-route',
    severity: 'error',
    description:
      'A command to a session no live connection claims is refused deterministically by an error frame with code "no-route"; no refusal Event enters the session.',
    detail: 'The error frame is connection-scoped, with cause = the command id.',
    spec: 'AEP-0004 §4 #2; §7; §8',
    messages: {
      frame:
        'A command to a session with no live claimant was answered {got}, not an error frame with its id as cause and code "no-route".',
      none: 'A command to a session with no live claimant got no answer within {ms} ms, not an error frame with its id as cause and code "no-route".',
      miscorrelated:
        "A command to a session with no live claimant got no error frame with its id as cause within {ms} ms: {seen}; the relay MUST set cause to the command's id.",
      accepted:
        'A command to a session with no live claimant was acked control.accepted; nothing claims the session, so the relay refuses it with an error frame with code "no-route".',
      history:
        'The refusal of a command to a session with no live claimant entered that session as a {type} Event; a relay-behalf refusal is a connection-scoped error frame only.',
    },
  },
  {
    id: 'aep/live-control-ambiguous',
    severity: 'error',
    description:
      'A command to a session two live connections claim is refused with the connection-scoped error frame {cause, code: "ambiguous"} and reaches neither claimant.',
    detail:
      "Runs with --token where capabilities.control is advertised; the two claimants are this run's own emitter connections, each declaring the probe type (never a real target).",
    spec: 'AEP-0004 §4 #5',
    quote: 'the relay MUST refuse the command',
    messages: {
      none: 'A command to a session two connections claim got no answer within {ms} ms, not the error frame with code "ambiguous".',
      miscorrelated:
        "A command to a session two connections claim got no error frame with its id as cause within {ms} ms: {seen}; the relay MUST set cause to the command's id.",
      frame:
        'A command to a session two connections claim was answered {got}, not an error frame with code "ambiguous".',
      delivered:
        'A command to a session two connections claim was delivered to a claimant: never guess a claimant, never broadcast.',
    },
  },
  {
    id: 'aep/live-control-ack',
    severity: 'error',
    description:
      'A command of a declared type to the --control-session target gets exactly one ack decision, with cause = the command id, within the ack window.',
    detail:
      'The type is named by --control-accepts; the decision is one control.accepted or control.rejected (reason from the closed set, never "unsupported").',
    spec: 'AEP-0004 §3; §4 #2; §7',
    messages: {
      window: 'No ack for a {type} command within the {ms} ms ack window{claim}.',
      unsupported: 'A {type} command (a declared type) was nacked "unsupported" by {by}.',
      reason:
        'The control.rejected for a {type} command has reason {reason:json}, not one of unsupported, unauthorized, busy, refused, invalid.',
      twice: 'A {type} command got {n} distinct ack Events, not one decision.',
      noRoute: 'The endpoint answered "no-route": no live connection claims the --control-session {session:json}.',
    },
  },
  {
    id: 'aep/live-control-declared',
    severity: 'error',
    description:
      'The --control-session target, once it decides a command as a control-capable party, declared control.accepts at hello: its roster entry relays it.',
    detail:
      'Run after the control-ack decision when the endpoint advertises the roster (AEP-0003 §4.1 #1): an entry relays the claiming connection\'s hello capabilities.control verbatim, absent when none was declared (§4.1 #4). An "unsupported" nack, or no decision, is no control-capable behaviour and is not judged; a session with no entry is the roster check\'s concern.',
    spec: 'AEP-0004 §7; AEP-0001 §10 #7; AEP-0003 §4.1 #4',
    quote: 'declare control.accepts at hello',
    messages: {
      undeclared:
        'The --control-session target decided a {type} command ({got}), yet its roster entry relays no control.accepts list ({control}): a control-capable target declares control.accepts at hello.',
    },
  },
  {
    id: 'aep/live-control-dedupe',
    severity: 'error',
    description:
      'A retransmitted command (same source and id) is not decided again: the target re-emits its recorded ack byte-identically, never a fresh ack Event.',
    spec: 'AEP-0004 §2 #3; §3; §7',
    messages: {
      unanswered:
        'A retransmitted command (id {id:json}) got no ack within {ms} ms; the target re-emits its recorded ack on redelivery.',
      fresh:
        'A retransmitted command (id {id:json}) was answered by {what}; the recorded ack must be re-emitted byte-identically.',
    },
  },
  {
    id: 'aep/live-control-unsupported',
    severity: 'error',
    description:
      'A command of a type the target does not declare (--control-undeclared) is nacked "unsupported", by the target or by a relay on its behalf.',
    detail:
      'From the target: control.rejected with reason "unsupported"; from a relay: an error frame with code "unsupported".',
    spec: 'AEP-0004 §4 #2; §7; AEP-0003 §4 #5',
    messages: {
      got: 'A command of the undeclared type {type} was answered {got} within {ms} ms, not a nack "unsupported".',
    },
  },
  {
    id: 'aep/live-control-cancel',
    severity: 'error',
    description:
      'Opt-in and destructive (--control-cancel RUN): a control.cancel of that run is acked within the window and, once accepted, exactly one run.cancelled follows with cause = the command id or its ack id.',
    detail:
      'A nack (control.rejected, or a relay error frame) skips the check: the target MAY refuse (AEP-0004 §2 #4), and `refused` is a first-class non-error outcome (§3).',
    spec: 'AEP-0004 §5; §6; §7',
    messages: {
      notAccepted: 'A control.cancel of run {run:json} was answered {got}, not an ack (control.accepted, or a nack).',
      noOutcome: 'No run.cancelled cause-linked to the control.cancel of run {run:json} within {ms} ms.',
      twice: '{n} distinct run.cancelled Events followed one control.cancel.',
    },
  },
];
