/**
 * Every function README §Library API lists in its "What it exports" table is an export of the package entry, and
 * every function the entry exports that the README's prose calls (`checkEndpoint(url, ...)`) is in that table: an
 * adapter author reads the table, not src/index.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as entry from '../../src/index.ts';
import { REPO } from '../cli/helpers.ts';

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('What it exports'), readme.indexOf('## What the package contains'));
const firstColumns = section
  .split('\n')
  .filter((l) => l.startsWith('| `'))
  .map((l) => l.split(' | ')[0]!);
/** The names called in the table's first column: `` `validate(protocol, ...)` `` gives `validate`. */
const tabled = new Set(firstColumns.flatMap((c) => [...c.matchAll(/`([A-Za-z]\w*)\(/g)].map((m) => m[1]!)));
/** Every name the first column spells, called or bare (`` `gateFormValues` ``, types, constants). */
const named = new Set(firstColumns.flatMap((c) => [...c.matchAll(/`([A-Za-z]\w*)[`(]/g)].map((m) => m[1]!)));

test('each function of the README exports table is exported by the package entry', () => {
  assert.ok(tabled.size > 5, [...tabled].join(', '));
  for (const name of tabled) assert.equal(typeof (entry as Record<string, unknown>)[name], 'function', name);
});

test('each exported function the README calls by name with arguments is in the exports table', () => {
  const called = new Set([...readme.matchAll(/`([a-z]\w*)\(/g)].map((m) => m[1]!));
  const missing = Object.keys(entry).filter(
    (k) => typeof (entry as Record<string, unknown>)[k] === 'function' && called.has(k) && !named.has(k),
  );
  assert.deepEqual(missing, []);
});
