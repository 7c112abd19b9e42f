// src/core/key-screen.ts: no key added is ever screened out, through every doubling, and most keys never added are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pairKey } from '../../src/core/canonical.ts';
import { KeyScreen } from '../../src/core/key-screen.ts';

test('a screen never answers "absent" for a key it was given, and answers it for most others', () => {
  const screen = new KeyScreen();
  const start = screen.byteLength;
  const n = 300_000;
  for (let i = 0; i < n; i++) {
    screen.add(pairKey('src', `id-${i}`), i);
    if (i % 997 === 0)
      for (let j = 0; j <= i; j += 101) assert.ok(screen.mayHold(pairKey('src', `id-${j}`)), `id-${j}`);
  }
  for (let i = 0; i < n; i++) assert.ok(screen.mayHold(pairKey('src', `id-${i}`)), `id-${i}`);
  assert.ok(screen.byteLength > start, 'the bits doubled');
  assert.ok(screen.byteLength * 8 >= n * 16, 'at least 16 bits a key');
  let passed = 0;
  for (let i = 0; i < 100_000; i++) if (screen.mayHold(pairKey('other', `id-${i}`))) passed++;
  assert.ok(passed < 15_000, `${passed} of 100,000 absent keys passed the screen`);
});

test('a screen with a byte limit stops doubling there and still never screens out a key it was given', () => {
  const screen = new KeyScreen(0);
  const start = screen.byteLength;
  const n = 200_000;
  for (let i = 0; i < n; i++) screen.add(pairKey('src', `id-${i}`), i);
  assert.equal(screen.byteLength, start, 'no doubling past the limit');
  for (let i = 0; i < n; i++) assert.ok(screen.mayHold(pairKey('src', `id-${i}`)), `id-${i}`);
});
