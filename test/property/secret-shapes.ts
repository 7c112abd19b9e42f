/**
 * What the credential-shape properties share (secret-classes.test.ts, secret-providers.test.ts): alphabets, a random
 * body, the places a credential stands in a log line, and the two verdicts: flagged whole and redacted without a trace,
 * or flagged by nothing.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createRedactor } from '../../src/aep/redact.ts';
import { findSecrets, type DetectorClass } from '../../src/core/secrets.ts';
import { runs } from '../scale.ts';

/** The pipeline with rules (c) and (d) off: only credentials are replaced. */
export const redactor = createRedactor({ home: false, pii: false });
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const ALNUM = UPPER + LOWER + DIGITS;
export const B64URL = ALNUM + '_-';
export const HEX = '0123456789abcdef';
export const RUNS = { numRuns: runs(400) };

/** A string of `min` to `max` characters of `alphabet`. */
export const chars = (alphabet: string, min: number, max = min) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));

/** Places a credential can stand in a log line. */
export const context = fc.constantFrom(
  (t: string) => t,
  (t: string) => `using ${t} for the deploy`,
  (t: string) => `{"credential": "${t}"}`,
  (t: string) => `export VALUE='${t}'`,
  (t: string) => `(${t})`,
  (t: string) => `line one\n${t}\nline three`,
  // percent-encoded separators around it (a URL-encoded query or redirect), either hex case, escaped twice, `+`
  (t: string) => `cb?next=%2Fhome%3Fq%3D${t}%26page%3D2`,
  (t: string) => `r%3fid%3d${t}%2c%3b%22`,
  (t: string) => `say%20${t}%0Adone%09`,
  (t: string) => `next%253D${t}%2526x`,
  (t: string) => `q=a+${t}+b`,
);

/**
 * Flagged, with a match of `cls` that covers `token`; `redact` leaves nothing flagged and keeps no `window` characters
 * of the token that the rest of the text does not hold (nor, with `marker`, that the redaction marker does).
 */
export function holds(text: string, token: string, cls: DetectorClass, window = 4, marker = true): void {
  const found = findSecrets(text);
  const at = text.indexOf(token);
  assert.ok(
    found.some((m) => m.class === cls && m.start <= at && m.end >= at + token.length),
    `${cls} not found whole in ${JSON.stringify(text)}: ${JSON.stringify(found)}`,
  );
  const out = redactor.text(text);
  assert.deepEqual(findSecrets(out), [], JSON.stringify(out));
  const rest = text.replace(token, '');
  for (let i = 0; i + window <= token.length; i++) {
    const part = token.slice(i, i + window);
    if (out.includes(part) && !rest.includes(part) && !(marker && '[REDACTED:secret]'.includes(part)))
      assert.fail(`${JSON.stringify(out)} keeps ${JSON.stringify(part)} of the token`);
  }
}

/** Flagged by nothing. */
export function clean(text: string): void {
  assert.deepEqual(findSecrets(text), [], `false alarm: ${JSON.stringify(text)}`);
}
