import { defineEventRule } from '../../core/engine.ts';
import { describeValue } from '../../core/finding.ts';
import type { RuleContext } from '../../core/rule.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';
import { FINISH_REASONS, MESSAGE_TYPES, STREAM_TYPES } from '../subprofile.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  type: '{type} data.{member} must be {want}, found {found}.',
} as const;

/** What a member must be, as a sentence's ending, and its test. */
type Shape = readonly [string, (v: unknown) => boolean];

const STRING: Shape = ['a string', (v) => typeof v === 'string'];
const COUNT: Shape = ['a non-negative integer', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0];
const BOOLEAN: Shape = ['a boolean', (v) => typeof v === 'boolean'];
const USAGE: Shape = [
  'a usage object whose gen_ai.usage.* token counts are non-negative integers (AEP-0002 §5.2)',
  (v) =>
    isObj(v) &&
    ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens'].every((k) => v[k] === undefined || COUNT[1](v[k])),
];
const REASON: Shape = ['one of completed, aborted, error', (v) => typeof v === 'string' && FINISH_REASONS.includes(v)];

const MESSAGE: Readonly<Record<string, Shape>> = {
  message_id: STRING,
  role: STRING,
  text: STRING,
  text_digest: STRING,
  chars: COUNT,
  truncated: BOOLEAN,
  usage: USAGE,
  'gen_ai.request.model': STRING,
};

/** The §4 members of each type with their shapes (`stream.started.kind` is aep/stream-kind's). */
const SHAPES: Readonly<Record<string, Readonly<Record<string, Shape>>>> = {
  'message.user.submitted': MESSAGE,
  'message.agent.replied': MESSAGE,
  'stream.started': { role: STRING },
  'stream.delta': { text: STRING, chars: COUNT },
  'stream.finished': { reason: REASON, chars: COUNT },
};

function check(d: Obj, shapes: Readonly<Record<string, Shape>>, ev: AepEvent, ctx: RuleContext<typeof MESSAGES>): void {
  for (const k in shapes) {
    if (!Object.hasOwn(d, k)) continue;
    const [want, ok] = shapes[k]!;
    const v = d[k];
    if (!ok(v))
      ctx.report({
        pointer: `/data/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        args: { type: ev.type, member: k, want, found: describeValue(v) },
      });
  }
}

/**
 * `aep/stream-payload`: under `--profile aep-0007` only. AEP-0007 §4 types its payloads ("machine-readable schemas
 * land in schemas/types/ at acceptance"); until then this rule holds the stated types. The payloads are open (AEP-0002
 * §5.4): other members are not judged.
 */
export const streamPayload = defineEventRule({
  id: 'aep/stream-payload',
  severity: 'error',
  description:
    'With --profile aep-0007: the AEP-0007 §4 payload members have their stated types: message_id, role, text, text_digest and gen_ai.request.model strings, chars a non-negative integer, truncated a boolean, usage token counts integers, stream.finished reason one of completed, aborted, error.',
  spec: 'AEP-0007 §4',
  messages: MESSAGES,
  types: [...MESSAGE_TYPES, ...STREAM_TYPES],
  check(ev: AepEvent, ctx) {
    if (!ev.subprofile) return;
    const d = ev.value.data;
    const shapes = SHAPES[ev.type];
    if (isObj(d) && shapes) check(d, shapes, ev, ctx);
  },
});
