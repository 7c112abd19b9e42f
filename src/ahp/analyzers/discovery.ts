/**
 * The discovery analyzer (capability-auth.md §Discovery and honest capabilities, §Event-semantic capability bounds,
 * §Coverage and deliberate exclusions): the stream's last capabilities manifest, and each new intercept request's
 * advertisement against it. State: one manifest's entries by event type, at most {@link MAX_ENTRIES}.
 */
import type { Mark } from '../../core/mark.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** Most manifest entries kept (an entry per draft event type, with room for a manifest that repeats some). */
const MAX_ENTRIES = 64;
/** The limits a manifest recognizes (capability-auth.md §Discovery and honest capabilities). */
const LIMITS = ['maxUploadBytes', 'maxContinuations', 'minTimeoutMs', 'maxTimeoutMs'] as const;
const OPERATIONS = ['replace', 'merge'] as const;

/** One thing an advertisement claims beyond what it may. */
export interface AdvertisementIssue {
  /** Under `/params/capabilities`. */
  pointer: string;
  messageId: 'uncovered' | 'observeOnly' | 'effect' | 'operation' | 'flow' | 'inject' | 'manifestMaximum';
  args: Record<string, string | number>;
}

/** What the discovery analyzer says about an intercept request. */
export interface AdvertisementFacts {
  /** Where the manifest it is compared with is (undefined: none in the input before it). */
  manifest: Mark | undefined;
  /** Claims beyond the manifest. */
  issues: AdvertisementIssue[];
  /** `flow.remainingContinuations` above the same block's `maxContinuations`. */
  allowance?: { remaining: number; max: number };
}

/** What the discovery analyzer says about a manifest. */
export interface ManifestFacts {
  /** Where the manifest is: `/result/manifest` (discovery) or `/params/event/manifest` (a `session.start`). */
  pointer: string;
  /** Recognized limits absent from `limits` that no `gaps` entry explains. */
  unexplained: string[];
  /** Timeout limits that leave part of 100 ms through 30,000 ms unsupported (base/failure.md §Deadlines, a SHOULD). */
  narrowTimeouts: { name: 'minTimeoutMs' | 'maxTimeoutMs'; value: number }[];
}

/** The interception deadlines a harness SHOULD support (base/failure.md §Deadlines). */
const TIMEOUT_RANGE = { minTimeoutMs: 100, maxTimeoutMs: 30_000 } as const;

interface Entry {
  modes: readonly unknown[];
  capabilities: Obj | undefined;
}

const strings = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/** Whether a `gaps` path names the limit `name` (`limits`, `limits.<name>`, or the same as a JSON pointer). */
function explains(path: unknown, name: string): boolean {
  return (
    path === 'limits' ||
    path === `limits.${name}` ||
    path === 'manifest.limits' ||
    path === `manifest.limits.${name}` ||
    path === '/limits' ||
    path === `/limits/${name}`
  );
}

/** The discovery analyzer */
export class Discovery {
  private entries = new Map<unknown, Entry>();
  private maxContinuations: number | undefined;
  private at: Mark | undefined;

  /** Read the manifest `manifest` (of a response at `at`): it replaces the one held; its facts. */
  readManifest(manifest: Obj, at: Mark): ManifestFacts {
    const entries = new Map<unknown, Entry>();
    for (const e of strings(manifest.events)) {
      if (!isObj(e) || entries.size >= MAX_ENTRIES) continue;
      entries.set(e.event, {
        modes: strings(e.modes),
        capabilities: isObj(e.capabilities) ? e.capabilities : undefined,
      });
    }
    this.entries = entries;
    const limits = isObj(manifest.limits) ? manifest.limits : undefined;
    const max = limits?.maxContinuations;
    this.maxContinuations = typeof max === 'number' ? max : undefined;
    this.at = at;
    return manifestFacts(manifest, '/result/manifest');
  }

  /** The facts of a new intercept request `msg` (its event of type `type`). */
  request(msg: AhpMessage, type: string): AdvertisementFacts | undefined {
    const params = msg.value.params;
    const caps = isObj(params) && isObj(params.capabilities) ? params.capabilities : undefined;
    if (!caps) return undefined;
    const issues: AdvertisementIssue[] = [];
    const facts: AdvertisementFacts = { manifest: this.at, issues };
    const flow = isObj(caps.flow) ? caps.flow : undefined;
    const remaining = flow?.remainingContinuations;
    if (
      typeof remaining === 'number' &&
      typeof flow?.maxContinuations === 'number' &&
      remaining > flow.maxContinuations
    )
      facts.allowance = { remaining, max: flow.maxContinuations };
    if (this.at === undefined) return issues.length || facts.allowance ? facts : undefined;
    const entry = this.entries.get(type);
    if (!entry) issues.push({ pointer: '', messageId: 'uncovered', args: { type } });
    else if (!entry.modes.includes('intercept')) issues.push({ pointer: '', messageId: 'observeOnly', args: { type } });
    else this.narrower(caps, entry.capabilities ?? {}, type, issues);
    // the static maximum: the manifest's limit, and its entry's own flow block where it states one
    const granted = entry?.capabilities;
    const entryMax = isObj(granted?.flow) ? granted.flow.maxContinuations : undefined;
    let max = this.maxContinuations;
    if (typeof entryMax === 'number' && (max === undefined || entryMax < max)) max = entryMax;
    if (typeof remaining === 'number' && max !== undefined && remaining > max)
      issues.push({ pointer: '/flow/remainingContinuations', messageId: 'manifestMaximum', args: { remaining, max } });
    return issues.length || facts.allowance ? facts : undefined;
  }

  /** What `caps` advertises beyond the manifest entry's `granted` for `type`, into `issues`. */
  private narrower(caps: Obj, granted: Obj, type: string, issues: AdvertisementIssue[]): void {
    const effects = strings(granted.effects);
    strings(caps.effects).forEach((e, i) => {
      if (typeof e === 'string' && !effects.includes(e))
        issues.push({ pointer: `/effects/${i}`, messageId: 'effect', args: { effect: e, type } });
    });
    if (isObj(caps.modify)) {
      const g = isObj(granted.modify) ? granted.modify : {};
      for (const [target, ops] of Object.entries(caps.modify)) {
        if (!isObj(ops)) continue;
        const gt = Object.hasOwn(g, target) && isObj(g[target]) ? (g[target] as Obj) : undefined;
        for (const op of OPERATIONS)
          if (ops[op] === true && gt?.[op] !== true)
            issues.push({
              pointer: `/modify/${target.replace(/~/g, '~0').replace(/\//g, '~1')}/${op}`,
              messageId: 'operation',
              args: { target, operation: op, type },
            });
      }
    }
    const flow = isObj(caps.flow) ? caps.flow : undefined;
    if (flow) {
      const g = isObj(granted.flow) ? strings(granted.flow.operations) : [];
      strings(flow.operations).forEach((op, i) => {
        if (typeof op === 'string' && !g.includes(op))
          issues.push({ pointer: `/flow/operations/${i}`, messageId: 'flow', args: { operation: op, type } });
      });
    }
    const inject = isObj(caps.inject) && isObj(caps.inject.context) ? caps.inject.context : undefined;
    if (inject) {
      const gi =
        isObj(granted.inject) && isObj(granted.inject.context) ? strings(granted.inject.context.deliverAt) : [];
      strings(inject.deliverAt).forEach((d, i) => {
        if (typeof d === 'string' && !gi.includes(d))
          issues.push({ pointer: `/inject/context/deliverAt/${i}`, messageId: 'inject', args: { deliverAt: d, type } });
      });
    }
  }
}

/**
 * The limit facts of `manifest` at `pointer`: capability-auth.md's "Unknown limits remain absent and MUST be explained in
 * `gaps`" holds for every manifest, the discovery result's and the one `session.start` carries.
 */
export function manifestFacts(manifest: Obj, pointer: string): ManifestFacts {
  const limits = isObj(manifest.limits) ? manifest.limits : undefined;
  const unexplained: string[] = [];
  if (limits)
    for (const name of LIMITS)
      if (limits[name] === undefined && !strings(manifest.gaps).some((g) => isObj(g) && explains(g.path, name)))
        unexplained.push(name);
  const narrowTimeouts: ManifestFacts['narrowTimeouts'] = [];
  const lo = limits?.minTimeoutMs;
  const hi = limits?.maxTimeoutMs;
  if (typeof lo === 'number' && lo > TIMEOUT_RANGE.minTimeoutMs)
    narrowTimeouts.push({ name: 'minTimeoutMs', value: lo });
  if (typeof hi === 'number' && hi < TIMEOUT_RANGE.maxTimeoutMs)
    narrowTimeouts.push({ name: 'maxTimeoutMs', value: hi });
  return { pointer, unexplained, narrowTimeouts };
}
