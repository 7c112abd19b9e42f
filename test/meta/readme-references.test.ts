// Every "README §X" a rule's text or a source comment cites names a README heading or a bullet lead-in (`- **X**`) that
// exists (trial 14 item 7: "README §AHP decisions on several deny effects" named neither). A reference may go on with
// `, "Bullet"` (a bullet under that heading) or `, §Other` (a second heading).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { rules } from '../../src/api/report.ts';

const README = readFileSync('README.md', 'utf8');
const plain = (s: string) => s.replace(/[`*]/g, '').toLowerCase();
// a heading is named with or without its closing parenthesis (`## Check a running endpoint (`aep live`)`)
const HEADINGS = [...README.matchAll(/^#+ +(.+)$/gm)].flatMap((m) => {
  const h = plain(m[1]!.trim());
  return [h, h.replace(/ \([^)]*\)$/, '')];
});
const BULLETS = [...README.matchAll(/^\s*- \*\*(.+?)\*\*/gm)].map((m) => plain(m[1]!.trim()));

/** The README name `text` starts with (longest), when it ends at a word boundary there. */
function named(text: string, names: readonly string[]): string | undefined {
  const t = plain(text);
  return (
    names
      // a name ends the reference: "§AHP decisions on …" is not the heading "AHP" and some prose
      .filter((n) => t.startsWith(n) && !/^ ?[a-z0-9]/.test(t.slice(n.length)))
      .sort((a, b) => b.length - a.length)[0]
  );
}

/** The references of `text` that name no README heading or bullet. */
function broken(text: string): string[] {
  const bad: string[] = [];
  // a comment's reference may wrap; the Collector file exporter's README (§File Format) is not ours
  const joined = text.replace(/\n\s*(?:\*|\/\/) ?/g, ' ');
  for (const m of joined.matchAll(/(?<!(?:fileexporter|file exporter) )README §/g)) {
    let rest = joined.slice(m.index + m[0].length);
    for (;;) {
      const name = named(rest, HEADINGS) ?? named(rest, BULLETS);
      if (name === undefined) {
        bad.push(rest.slice(0, 60));
        break;
      }
      // the name matched in plain text; step over as many characters of `rest` (backticks in it are rare)
      let used = 0;
      for (let seen = 0; seen < name.length; used++) if (!/[`*]/.test(rest[used]!)) seen++;
      rest = rest.slice(used);
      const bullet = /^, "([^"]+)"/.exec(rest);
      if (bullet) {
        if (!BULLETS.includes(plain(bullet[1]!))) bad.push(`bullet "${bullet[1]}"`);
        break;
      }
      const next = /^, §/.exec(rest);
      if (!next) break;
      rest = rest.slice(next[0].length);
    }
  }
  return bad;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) yield* sourceFiles(join(dir, e.name));
    else if (e.name.endsWith('.ts')) yield join(dir, e.name);
}

test('the check finds a reference that names nothing, and passes a heading, a bullet under it and a second heading', () => {
  assert.deepEqual(broken('see README §AHP decisions on several deny effects.'), [
    'AHP decisions on several deny effects.',
  ]);
  assert.deepEqual(
    broken(
      'README §Decisions on AHP decisions, responses and advertisements, "Several deny effects in one response"; README §Exit codes.',
    ),
    [],
  );
  assert.deepEqual(broken('README §Exit codes has the list'), ['Exit codes has the list']);
  assert.deepEqual(broken('README §Decisions on AHP decisions, responses and advertisements, "No such bullet"'), [
    'bullet "No such bullet"',
  ]);
});

test('every README § reference in the rules (AEP and AHP) and in src/ names a README heading or bullet', () => {
  const bad: string[] = [];
  for (const protocol of ['aep', 'ahp'] as const)
    for (const r of rules(protocol))
      for (const text of [r.description, r.detail, r.spec, r.quote, ...Object.values(r.messages ?? {})])
        if (text) bad.push(...broken(text).map((b) => `${r.id}: ${b}`));
  for (const file of sourceFiles('src')) bad.push(...broken(readFileSync(file, 'utf8')).map((b) => `${file}: ${b}`));
  assert.deepEqual(bad, []);
});
