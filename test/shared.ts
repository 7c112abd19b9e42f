/**
 * The one way a test reaches `../shared`, the read-only checkout beside the repository (upstream corpora, spec
 * text and schemas; read at test time only, never copied into the project). `AGENT_CONFORMANCE_SHARED` points
 * elsewhere (as for tools/requirements.ts). A test that needs a part that is absent skips with {@link sharedSkip}'s
 * one wording; a test that only adds the part to its own cases notes it with the same wording and goes on. Nothing
 * here throws when ../shared is absent.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

/** `<repo>/`, resolved from this file. */
export const REPO_DIR = fileURLToPath(new URL('../', import.meta.url));

/** The shared checkout: `AGENT_CONFORMANCE_SHARED`, else `<repo>/../shared/`. */
export const SHARED_DIR = process.env.AGENT_CONFORMANCE_SHARED ?? join(REPO_DIR, '..', 'shared');

/** The parts of ../shared the tests read, relative to {@link SHARED_DIR}. */
export const SHARED = {
  aepCorpus: 'corpus/aep/conformance/fixtures',
  ahpCorpus: 'corpus/ahp/fixtures/draft',
  aepSchemas: 'reference/aep/schemas',
  aepSpec: 'reference/aep/spec',
  ceSchema: 'reference/cloudevents/cloudevents.json',
  mcpTag: 'upstream/mcp/2025-11-25/schema.json',
  mcpHead: 'upstream/mcp/2025-11-25-head/schema.json',
  ahpExtraction: 'reference/mcp/ahp-fixtures/mcp-elicitation.schema.json',
  ahpPin: 'reference/ahp/upstream/mcp/2025-11-25/pin.json',
  ahpRequest: 'reference/mcp/ahp-fixtures/request.json',
  ahpResult: 'reference/mcp/ahp-fixtures/result.json',
} as const;

/** The absolute path of `rel` (a path below ../shared, e.g. one of {@link SHARED}); it may not exist. */
export function sharedPath(...rel: string[]): string {
  return join(SHARED_DIR, ...rel);
}

/** Whether every one of `rels` exists below ../shared. */
export function hasShared(...rels: string[]): boolean {
  return rels.every((r) => existsSync(sharedPath(r)));
}

/** The one wording of a skip (or note) for `rel` absent below ../shared. */
export function sharedSkip(rel: string): string {
  const shown = relative(REPO_DIR, sharedPath(rel)) || sharedPath(rel);
  return `needs ${shown}, which is absent (the shared checkout beside the repository; AGENT_CONFORMANCE_SHARED overrides)`;
}

/** For a test's or suite's options: `{ skip: sharedAbsent(...) }` is false when every part is present. */
export function sharedAbsent(...rels: string[]): string | false {
  const missing = rels.find((r) => !hasShared(r));
  return missing === undefined ? false : sharedSkip(missing);
}

/** Skip `t` with the one wording and return false when a part is absent; true when every part is present. */
export function needShared(t: TestContext, ...rels: string[]): boolean {
  const why = sharedAbsent(...rels);
  if (why === false) return true;
  t.skip(why);
  return false;
}

/**
 * The path of an optional part: present, its path; absent, `undefined` after noting it on `t` with the one wording
 * (the test checks its own cases and says what it left out).
 */
export function optionalShared(t: TestContext, rel: string): string | undefined {
  if (hasShared(rel)) return sharedPath(rel);
  t.diagnostic(sharedSkip(rel));
  return undefined;
}
