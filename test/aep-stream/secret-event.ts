/** The AEP event the secret relation and survival tests place a secret in (test/aep-stream/secret-*.test.ts). */

/** The capture levels every place is written at (`undefined`: no `capture`, read as metadata). */
export const LEVELS = ['none', 'metadata', 'redacted', 'full', undefined] as const;

/** Event `seq` of one session: `type`, `data` and `envelope` members at `capture`. */
export function placedEvent(
  seq: number,
  type: string,
  data: unknown,
  envelope: Record<string, unknown> | undefined,
  capture: (typeof LEVELS)[number],
): Record<string, unknown> {
  return {
    aep: '0.1',
    id: `ev-${seq}`,
    type,
    time: '2026-11-30T09:00:00.000Z',
    source: 'aep://h/agent/a/session/s1',
    agent: 'a',
    session: 's1',
    seq,
    ...(capture ? { capture } : {}),
    ...envelope,
    data,
  };
}

/** True for the verbs that redact: `redact`, and a hop given `--redact`. */
export const redacting = (args: readonly string[]): boolean => args[0] === 'redact' || args.includes('--redact');

/** A written line's members but `data`, decoded: `subject` and the extension attributes travel at every level. */
export const envelopeOf = (line: string): string => {
  const { data: _, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(rest);
};
