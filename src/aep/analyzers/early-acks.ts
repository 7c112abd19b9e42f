/**
 * Acks earlier in the input than their command (AEP-0004 §3): foreign events are ordered by time and cause, not by file
 * position (AEP-0001 §5.2), so a merged log may hold a command after its ack. Kept per `(session, cause)` under the
 * memory budget, oldest forgotten first; the keys forgotten are screened so a later command is known to maybe have had one.
 */
import { KeyScreen } from '../../core/key-screen.ts';
import { textKey, type Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import type { CommandIndex } from './command-index.ts';
import type { AepIdTable } from './id-table.ts';
import type { EarlyAck } from './pending-command.ts';

/** Estimated bytes of one kept ack (key, record, mark, the identity key of its cause): measured 890, docs/benchmarks.md. */
const ACK_BYTES = 900;

/** The kept acks of one run, by command key (`control.ts` key2 of session and cause), first in the input first. */
export class EarlyAcks {
  private readonly byKey = new Map<string, EarlyAck[]>();
  /** The cause and session of each key's acks. */
  private readonly names = new Map<string, { cause: string; session: string }>();
  private count = 0;
  /** The keys of forgotten acks, made at the first (its fixed 128 KiB are not counted: it does not grow). */
  private forgotten: KeyScreen | undefined;

  bytes(): number {
    return this.count * ACK_BYTES;
  }

  /** Forget the acks of the oldest key; false when none are kept. */
  forgetOldest(): boolean {
    const first = this.byKey.entries().next();
    if (first.done) return false;
    const [k, acks] = first.value;
    this.byKey.delete(k);
    this.names.delete(k);
    this.count -= acks.length;
    (this.forgotten ??= new KeyScreen(0)).add(textKey(k), 0);
    return true;
  }

  /** Keep `ack` of the command `cause` to `session` (key `k`), not yet in the input. */
  keep(k: string, ack: EarlyAck, cause: string, session: string): void {
    const list = this.byKey.get(k);
    if (list) list.push(ack);
    else {
      this.byKey.set(k, [ack]);
      this.names.set(k, { cause, session });
    }
    this.count++;
  }

  /**
   * The kept acks whose cause names the emitter's own event (before the ack, or by `ids` anywhere in the input), or
   * (by `index`) a command of the input to another session: at the end of input, no command of their own session
   * matched them (aep/ack-cause-not-command).
   */
  *unmatched(
    index: CommandIndex,
    ids: AepIdTable,
  ): IterableIterator<{ ack: EarlyAck; cause: string; named: Mark; own: boolean }> {
    for (const [k, acks] of this.byKey) {
      const { cause, session } = this.names.get(k)!;
      for (const ack of acks) {
        const own = ack.own ?? (ack.ownKey && ownMark(ids, ack.ownKey));
        const named = own ?? index.otherSession(cause, session);
        if (named) yield { ack, cause, named, own: own !== undefined };
      }
    }
  }

  /** The acks kept for the command under `k`, first in the input first, no longer kept. */
  take(k: string): EarlyAck[] | undefined {
    const list = this.byKey.get(k);
    if (!list) return undefined;
    this.byKey.delete(k);
    this.names.delete(k);
    this.count -= list.length;
    return list;
  }

  /** True when an ack of the command under `k` may have been kept and forgotten under the memory budget. */
  mayHaveForgotten(k: string): boolean {
    return this.forgotten?.mayHold(textKey(k)) === true;
  }
}

/** Where the first event under the identity key `k` (an emitter's `(source, id)`) is, when `ids` holds it. */
export function ownMark(ids: AepIdTable, k: Hash64): Mark | undefined {
  const e = ids.get(k);
  return e ? { file: ids.fileName(e.file), line: e.line } : undefined;
}
