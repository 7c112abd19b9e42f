/**
 * The AEP-0007 message and stream sub-profile (a Draft the 0.1 registry does not list): its types, closed sets and
 * capture annotations, written from AEP-0007 §2-§6. The `stream` category and the five types count as registered only
 * under `--profile aep-0007`; the `message.*` capture annotations apply always, since AEP-0002 §4.3 already makes
 * those reserved types "content-bearing, capture-gated `redacted`+" in 0.1 (README §AEP-0007: the message and stream
 * sub-profile).
 */
import { captureNode, type CaptureNode } from './capture.ts';

/** The profile name of `--profile` (AEP option `profile`). */
export const AEP_0007 = 'aep-0007';

/** The sub-profile's `message.*` types (AEP-0007 §4; reserved in AEP-0002 §4.3). */
export const MESSAGE_TYPES: ReadonlySet<string> = new Set(['message.user.submitted', 'message.agent.replied']);

/** The `stream` category's members (AEP-0007 §2). */
export const STREAM_TYPES: ReadonlySet<string> = new Set(['stream.started', 'stream.delta', 'stream.finished']);

/** `stream.started.kind` (AEP-0007 §4: `enum(message|reasoning|tool_args|output)`). */
export const STREAM_KINDS: readonly string[] = ['message', 'reasoning', 'tool_args', 'output'];

/** `stream.finished.reason` (AEP-0007 §4: `enum(completed|aborted|error)`, default `completed`). */
export const FINISH_REASONS: readonly string[] = ['completed', 'aborted', 'error'];

/** True for a type of the sub-profile (the two `message.*` and the three `stream.*`). */
export function isSubprofileType(type: string): boolean {
  return MESSAGE_TYPES.has(type) || STREAM_TYPES.has(type);
}

/** A type of the `stream` category (AEP-0007 §2), registered or not: `stream.{rest}` with the 0.1 segment grammar. */
export const STREAM_CATEGORY = /^stream(\.[a-z0-9_]+)+$/;

const meta = (): CaptureNode => captureNode('metadata');
const gated = (): CaptureNode => captureNode('redacted');

/** The §4 payload annotations of one type: `text` `[redacted]`, every other member `[metadata]` (AEP-0007 §4, §6). */
function tree(members: Record<string, () => CaptureNode>): CaptureNode {
  return captureNode('metadata', new Map(Object.entries(members).map(([k, f]) => [k, f()])));
}

const MESSAGE_TREE = (): CaptureNode =>
  tree({
    message_id: meta,
    role: meta,
    text: gated,
    text_digest: meta,
    chars: meta,
    truncated: meta,
    usage: meta,
    'gen_ai.request.model': meta,
  });

const TREES: Record<string, () => CaptureNode> = {
  'message.user.submitted': MESSAGE_TREE,
  'message.agent.replied': MESSAGE_TREE,
  'stream.started': () => tree({ kind: meta, role: meta }),
  'stream.delta': () => tree({ text: gated, chars: meta }),
  'stream.finished': () => tree({ reason: meta, chars: meta }),
};

const built = new Map<string, CaptureNode>();

/**
 * The capture annotation tree of a sub-profile type (AEP-0007 §4, §6: `text` is `redacted` minimum, no `[metadata*]`
 * exception), or `undefined` for any other type. Built once per type.
 */
export function subprofileCaptureTree(type: string): CaptureNode | undefined {
  const make = TREES[type];
  if (!make) return undefined;
  let t = built.get(type);
  if (!t) built.set(type, (t = make()));
  return t;
}
