// Which option id reads as permissive or refusing is one list (trial 14 item 7: explain had "allowed", the README did
// not): README §Decisions on capture, digests and redaction and explain aep/text-answer-permissive both give the
// words src/aep/text-answer.ts reads, all of them, in its order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { textAnswerPermissive } from '../../src/aep/rules/text-answer-permissive.ts';
import { optionStance, PERMISSIVE_WORDS, REFUSING_WORDS } from '../../src/aep/text-answer.ts';

const squash = (s: string) => s.replace(/\s+/g, ' ');

test('README and explain list the permissive and refusing words the check reads', () => {
  const readme = squash(readFileSync('README.md', 'utf8'));
  const both = `permissive: ${PERMISSIVE_WORDS.join(', ')}; refusing, checked first: ${REFUSING_WORDS.join(', ')}`;
  assert.ok(readme.includes(`(${both})`), 'README lists the words');
  const detail = squash(textAnswerPermissive.detail ?? '');
  const own = `words (${PERMISSIVE_WORDS.join(', ')}), with no refusing word (checked first: ${REFUSING_WORDS.join(', ')})`;
  assert.ok(detail.includes(own), 'explain lists the words');
  for (const w of PERMISSIVE_WORDS) assert.equal(optionStance(`${w}_once`), 'permissive', w);
  for (const w of REFUSING_WORDS) assert.equal(optionStance(`allow_${w}`), 'refusing', w);
});
