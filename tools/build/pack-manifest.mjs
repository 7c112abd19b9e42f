#!/usr/bin/env node
/**
 * `prepack` / `postpack`: the packed package.json carries no `scripts`. They are the checkout's
 * (`prepare` builds on `npm ci`, `test`, `bench`, ...); in an installed package none can run (no
 * src/, no tools/), and npm 11 lists a `prepare` as an install script to approve.
 * - `strip` (prepack): keep the exact bytes in `.package.json.prepack`, write package.json
 *   without `scripts`. npm reads the manifest it packs after prepack, so neither `prepare` nor
 *   anything else runs during the pack, and the tarball's package.json is this one. Before it,
 *   prepack runs `build.mjs --if-stale`: a pack never ships a dist/ older than src/, or none.
 * - `restore` (postpack): put the kept bytes back.
 * A pack that failed between the two leaves the copy: `strip` then refuses, `restore` repairs.
 * Plain JavaScript: runs before tsx exists.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MANIFEST = join(ROOT, 'package.json');
const KEPT = join(ROOT, '.package.json.prepack');

const mode = process.argv[2];
if (mode === 'strip') {
  if (existsSync(KEPT)) {
    process.stderr.write(
      `pack-manifest: ${KEPT} exists (a pack did not finish): run \`node tools/build/pack-manifest.mjs restore\` first\n`,
    );
    process.exit(2);
  }
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  delete manifest.scripts;
  writeFileSync(KEPT, text);
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
} else {
  process.stderr.write('usage: node tools/build/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
