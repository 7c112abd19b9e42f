// src/generated/spec-anchors.json (the AEP section anchors of the spec links) is what
// `npm run rules:gen` would write now from the reference AEP spec beside the repository.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AEP_SPEC_DIR, ANCHORS_JSON, extractAepAnchors } from '../../tools/gen-rules.ts';

const absent = existsSync(AEP_SPEC_DIR)
  ? false
  : `the reference AEP spec is absent (${AEP_SPEC_DIR}): spec-anchors.json cannot be checked here`;

test('src/generated/spec-anchors.json is current (run `npm run rules:gen` with ../shared present)', {
  skip: absent,
}, () => {
  const committed = JSON.parse(readFileSync(ANCHORS_JSON, 'utf8')) as unknown;
  assert.deepEqual(
    committed,
    extractAepAnchors(AEP_SPEC_DIR),
    'src/generated/spec-anchors.json is stale: run `npm run rules:gen` and commit the result',
  );
  assert.equal(
    readFileSync(ANCHORS_JSON, 'utf8'),
    `${JSON.stringify(committed, null, 2)}\n`,
    'spec-anchors.json is written as rules:gen writes it',
  );
});
