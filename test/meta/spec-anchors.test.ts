// src/generated/spec-anchors.json (the AEP section anchors of the spec links) is what
// `npm run rules:gen` would write now from the reference AEP spec beside the repository.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ANCHORS_JSON, extractAepAnchors } from '../../tools/gen-rules.ts';
import { SHARED, sharedAbsent, sharedPath } from '../shared.ts';

test('src/generated/spec-anchors.json is current (run `npm run rules:gen` with ../shared present)', {
  skip: sharedAbsent(SHARED.aepSpec),
}, () => {
  const committed = JSON.parse(readFileSync(ANCHORS_JSON, 'utf8')) as unknown;
  assert.deepEqual(
    committed,
    extractAepAnchors(sharedPath(SHARED.aepSpec)),
    'src/generated/spec-anchors.json is stale: run `npm run rules:gen` and commit the result',
  );
  assert.equal(
    readFileSync(ANCHORS_JSON, 'utf8'),
    `${JSON.stringify(committed, null, 2)}\n`,
    'spec-anchors.json is written as rules:gen writes it',
  );
});
