/** aep/identifier-charset reads its grammar by character code: it answers as `^[A-Za-z0-9][A-Za-z0-9._-]*$` does. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AepEvent } from '../../src/aep/event.ts';
import { identifierCharset } from '../../src/aep/rules/identifier-charset.ts';

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

test('aep/identifier-charset: the character-code grammar agrees with the regular expression, string for string', () => {
  const pieces = ['a', 'Z', '0', '9', '.', '_', '-', ' ', '/', '@', '[', '`', '{', ':', '\u0130', 'é', '\u212a', '\n'];
  const strings: string[] = [''];
  for (const a of pieces) for (const b of pieces) for (const c of pieces) strings.push(a + b + c, a + b, a);
  let unsafe = 0;
  for (const s of strings) {
    const names: string[] = [];
    const ev = { value: { session: s, run: s, step: 7 } } as unknown as AepEvent;
    identifierCharset.check(ev, { report: (r) => names.push(String(r.pointer)) });
    const want = s.length > 0 && !SAFE_ID.test(s);
    assert.deepEqual(names, want ? ['/session', '/run'] : [], JSON.stringify(s));
    if (want) unsafe++;
  }
  assert.ok(unsafe > 1000 && unsafe < strings.length - 100, `${unsafe} of ${strings.length}`);
});
