/**
 * What the checker derives from an event type, once per distinct type: types recur on every event, so one memo lookup
 * an event replaces a lookup by the type's text at each use (counts, envelope branch, scope, registry entry, payload
 * verdict, capture tree).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { TextMemo } from '../../core/text-memo.ts';
import type { CaptureNode } from '../capture.ts';
import { subprofileCaptureTree } from '../subprofile.ts';
import { scopeOf, type AepScope } from '../levels.ts';
import { typeBranch, type EnvelopeBranch } from './envelope-fast.ts';
import type { AepRegistryType } from './registry.ts';
import { captureTreeFor, payloadValidator, registryEntry } from './validators.ts';

let nextIndex = 0;

/** The facts of one event type (see the module comment). */
export class AepTypeInfo {
  /** Distinct for each info made (the per-run type counts of src/aep/protocol.ts are indexed by it). */
  readonly index = nextIndex++;
  /** The envelope fast path's branch (src/aep/schema/envelope-fast.ts `typeBranch`). */
  readonly branch: EnvelopeBranch;
  readonly scope: AepScope;
  /** The registry entry; `undefined` for a vendor (`x.`) or unregistered type. */
  readonly entry: AepRegistryType | undefined;
  private verdict: ValidateFunction | null | undefined = undefined;
  private tree: CaptureNode | null | undefined = undefined;

  constructor(readonly type: string) {
    this.branch = typeBranch(type);
    this.scope = scopeOf(type);
    this.entry = type.startsWith('x.') ? undefined : registryEntry(type);
  }

  /** {@link payloadValidator} of the type. */
  get payload(): ValidateFunction | undefined {
    if (this.verdict === undefined) this.verdict = payloadValidator(this.type) ?? null;
    return this.verdict ?? undefined;
  }

  /** {@link captureTreeFor} the type; the AEP-0007 types get their §4 annotations (for the leak rules). */
  get captureTree(): CaptureNode | undefined {
    if (this.tree === undefined) this.tree = captureTreeFor(this.type) ?? subprofileCaptureTree(this.type) ?? null;
    return this.tree ?? undefined;
  }
}

const infos = new TextMemo<AepTypeInfo>(1024);
const make = (type: string): AepTypeInfo => new AepTypeInfo(type);

// A direct-mapped front to the memo: an event's type is a fresh string (JSON.parse internalizes only short values), so
// the memo's lookup hashed it at every event; comparing it with the one type kept in its slot costs a fraction of that.
// 256 slots by the length and two code units (the registered types share few slots; a shared one falls to the memo).
const front: (AepTypeInfo | undefined)[] = new Array<AepTypeInfo | undefined>(256).fill(undefined);

/** The {@link AepTypeInfo} of `type` (the last 1,024 types kept). */
export function typeInfo(type: string): AepTypeInfo {
  const n = type.length;
  const slot =
    n < 7 ? 0 : Math.imul(n ^ (type.charCodeAt(n - 5) << 8) ^ (type.charCodeAt(n - 6) << 16), 0x9e3779b1) >>> 24;
  const kept = front[slot];
  if (kept !== undefined && kept.type === type) return kept;
  return (front[slot] = infos.of(type, make));
}
