/**
 * `fixtures -o FILE` never replaces a file the run reads: for every file of a fixture directory (cases, sidecars, an
 * AHP manifest), reached by its own name, a symbolic link or a hard link outside it, and for the deviations file, the
 * run is a usage error (exit 2) and the file keeps its bytes; a report file outside them is written as before.
 */
import assert from 'node:assert/strict';
import { linkSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixtureSample, runCli } from './helpers.ts';
import { fileTempDir } from '../temp.ts';

/** Every file below `dir`. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesBelow(p) : [p];
  });
}

for (const bin of ['aep', 'ahp'] as const) {
  test(`${bin} fixtures: -o naming any file the run reads (also via a link) is refused and leaves it whole`, async () => {
    const dir = fixtureSample(bin, 2);
    // a manifest-named file inside: the upstream AHP layout's, refused like any other file there
    if (bin === 'ahp') writeFileSync(join(dir, 'manifest.json'), '{"not":"read in our layout"}');
    const out = fileTempDir(`ac-${bin}-fixtures-out-`);
    const deviations = join(out, 'dev.json');
    writeFileSync(deviations, '[]');
    const files = filesBelow(dir);
    assert.ok(files.some((f) => f.endsWith('.expected.json')) && files.length >= 4, 'cases and sidecars');
    const targets: string[] = [];
    for (const [i, f] of files.entries()) {
      targets.push(f);
      const sym = join(out, `sym-${i}`);
      const hard = join(out, `hard-${i}`);
      symlinkSync(f, sym);
      linkSync(f, hard);
      targets.push(sym, hard);
    }
    targets.push(deviations);
    const before = new Map(files.map((f) => [f, readFileSync(f)]));
    for (const target of targets) {
      for (const format of ['text', 'json']) {
        const r = await runCli(bin, ['fixtures', dir, '--deviations', deviations, '-f', format, '-o', target]);
        assert.equal(r.code, 2, `${target} ${format}: ${r.stderr}`);
        assert.match(r.stderr, /--output .* writing there would destroy it; name another file/, target);
      }
    }
    for (const [f, bytes] of before) assert.deepEqual(readFileSync(f), bytes, `${f} kept its bytes`);
    assert.equal(readFileSync(deviations, 'utf8'), '[]');
    // a file outside the directory and the deviations file is written
    const report = join(out, 'report.json');
    const ok = await runCli(bin, ['fixtures', dir, '--deviations', deviations, '-f', 'json', '-o', report]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(readFileSync(report, 'utf8')).kind, 'fixtures');
  });
}
