// A finding reached through the library must not send its reader to a CLI flag alone (trial 14 item 4): every message
// template that names a flag of `validate` also names the library option (`--binding http` (library: `binding:
// 'http'`)), in both protocols. Live and pin findings come from CLI verbs only, so they are not held.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { validateRuleTables } from './rule-tables.ts';
import { AEP_SCHEMA_TEMPLATES } from '../../src/aep/schema/templates.ts';
import { AHP_SCHEMA_TEMPLATES, MCP_BODY_TEMPLATES, MCP_TEMPLATES } from '../../src/ahp/schema/templates.ts';

const FLAG = /--[a-z][a-z-]*/;

/** The templates that name a flag and no library option, as `where: template`. */
function flagOnly(where: string, templates: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(templates ?? {})
    .filter(([, t]) => FLAG.test(t) && !/library: `/.test(t))
    .map(([key, t]) => `${where} ${key}: ${t}`);
}

test('every finding template that names a CLI flag names the library option too', () => {
  const tables = validateRuleTables();
  const bad: string[] = [];
  for (const table of tables) for (const r of table) bad.push(...flagOnly(r.id, r.messages));
  for (const [name, t] of Object.entries({
    AEP_SCHEMA_TEMPLATES,
    AHP_SCHEMA_TEMPLATES,
    MCP_TEMPLATES,
    MCP_BODY_TEMPLATES,
  }))
    bad.push(...flagOnly(name, t));
  assert.deepEqual(bad, []);
});

test('the hints built in code (a pretty-printed input, bridge output) name the library option beside the flag', () => {
  const bad: string[] = [];
  for (const file of ['src/ahp/binding-hint.ts', 'src/aep/bridges/hint.ts'])
    for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries())
      if (/\\`--[a-z]/.test(line) && !/library: \\`/.test(line)) bad.push(`${file}:${i + 1}`);
  assert.deepEqual(bad, []);
});
