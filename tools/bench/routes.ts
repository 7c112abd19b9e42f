/**
 * `npm run bench -- --routes [N]`: the same bytes by every route (issue 39). For each protocol, one
 * generated file of N events (default: AEP 200,000, AHP 300,000) is validated as a file, from
 * standard input redirected from the file, through a pipe, as a gzip file, through the library's
 * `validateStream` over a Node stream and through `createSession` line by line
 * (tools/bench/route-library.mjs); `zcat` alone (zlib's own cost) is measured beside the gzip row.
 * Each row is the CPU time of the measured process (best of R runs, routes taking turns) and its
 * peak RSS, with its ratio to the file. Then each verb that writes a stream (`filter`, `redact`,
 * `downlevel`, `convert --to cloudevents|otlp`) runs on the AEP file with a reader that waits
 * `--slow-ms` (default 15000) before it drains: its peak RSS shows whether it honours backpressure.
 */
import { spawn } from 'node:child_process';
import { createReadStream, openSync, closeSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { generateAep } from './generate-aep.ts';
import { generateAhp } from './generate-ahp.ts';
import { removeScratch, scratchDir } from './scratch.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const USAGE_HOOK = join(ROOT, 'tools/bench/usage-hook.cjs');

/** Options of {@link routes}. */
export interface RouteOptions {
  protocols: ('aep' | 'ahp')[];
  events?: number;
  runs: number;
  slowMs: number;
}

interface Usage {
  cpuMs: number;
  maxRssMB: number;
  code: number | null;
  stderr: string;
}

/** How the measured child gets its input and gives its output. */
interface ChildIO {
  /** A file opened as its standard input (`< file`). */
  stdinFile?: string;
  /** A file written into its standard input through a pipe (`cat file |`). */
  pipeFile?: string;
  /** Wait this long before draining its standard output (a slow reader). */
  slowMs?: number;
}

function measure(args: string[], io: ChildIO = {}): Promise<Usage> {
  return new Promise((resolve, reject) => {
    const stdinFd = io.stdinFile ? openSync(io.stdinFile, 'r') : undefined;
    const child = spawn(process.execPath, ['-r', USAGE_HOOK, ...args], {
      cwd: ROOT,
      stdio: [stdinFd ?? (io.pipeFile ? 'pipe' : 'ignore'), 'pipe', 'pipe'],
    });
    if (stdinFd !== undefined) closeSync(stdinFd);
    if (io.pipeFile) createReadStream(io.pipeFile, { highWaterMark: 1 << 16 }).pipe(child.stdin!);
    const stdout = child.stdout!;
    const err: Buffer[] = [];
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    if (io.slowMs) {
      stdout.pause();
      setTimeout(() => {
        stdout.on('data', () => {});
        stdout.resume();
      }, io.slowMs);
    } else stdout.on('data', () => {});
    child.on('error', reject);
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      const m = /@@usage (\{.*\})/.exec(stderr);
      const u = m ? (JSON.parse(m[1]!) as { maxRSS: number; user: number; system: number }) : undefined;
      resolve({
        cpuMs: u ? (u.user + u.system) / 1000 : Number.NaN,
        maxRssMB: u ? u.maxRSS / 1024 : Number.NaN,
        code,
        stderr: stderr.replace(/\n?@@usage .*\n?/, ''),
      });
    });
  });
}

const fmt = (n: number, d = 2) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** Run the route and verb rows; print them and return one JSON object per protocol. */
export async function routes(o: RouteOptions): Promise<Record<string, unknown>[]> {
  const dir = scratchDir('agent-conformance-routes-');
  const out: Record<string, unknown>[] = [];
  try {
    for (const protocol of o.protocols) {
      const n = o.events ?? (protocol === 'aep' ? 200_000 : 300_000);
      const file = join(dir, `${protocol}.jsonl`);
      if (protocol === 'aep') generateAep(file, { events: n });
      else generateAhp(file, { messages: n });
      const gz = `${file}.gz`;
      writeFileSync(gz, gzipSync(readFileSync(file)));
      const bin = `bin/${protocol}.js`;
      const v = [bin, 'validate', '--quiet', '--no-progress', '--format', 'json'];
      const rows: [string, string[], ChildIO][] = [
        ['file', [...v, file], {}],
        ['stdin (< file)', [...v, '-'], { stdinFile: file }],
        ['pipe (cat |)', [...v, '-'], { pipeFile: file }],
        ['gzip file', [...v, gz], {}],
        [
          'zlib alone (zcat)',
          ['-e', `require('node:zlib').gunzipSync(require('node:fs').readFileSync(${JSON.stringify(gz)}))`],
          {},
        ],
        ['library validateStream', ['tools/bench/route-library.mjs', 'stream', protocol, file], {}],
        ['library createSession', ['tools/bench/route-library.mjs', 'session', protocol, file], {}],
      ];
      const best = new Map<string, Usage>();
      for (let r = 0; r < o.runs; r++)
        for (const [label, args, io] of rows) {
          const m = await measure(args, io);
          if (m.code !== 0 && !label.startsWith('zlib'))
            throw new Error(`${protocol} ${label} exited ${m.code}: ${m.stderr.slice(0, 500)}`);
          const b = best.get(label);
          best.set(
            label,
            !b || m.cpuMs < b.cpuMs
              ? { ...m, maxRssMB: Math.max(m.maxRssMB, b?.maxRssMB ?? 0) }
              : { ...b, maxRssMB: Math.max(m.maxRssMB, b.maxRssMB) },
          );
        }
      const base = best.get('file')!.cpuMs;
      console.log(
        `${protocol}: ${n.toLocaleString('en-US')} events, ${fmt(statSync(file).size / 1048576, 1)} MB; CPU s of the measured process (best of ${o.runs}), ratio to the file, peak RSS`,
      );
      const json: Record<string, unknown> = { protocol, events: n, routes: {} };
      for (const [label] of rows) {
        const m = best.get(label)!;
        console.log(
          `  ${label.padEnd(24)} ${fmt(m.cpuMs / 1000).padStart(6)} s  ${fmt(m.cpuMs / base).padStart(5)}x  ${fmt(m.maxRssMB, 0).padStart(4)} MB`,
        );
        (json.routes as Record<string, unknown>)[label] = {
          cpuSeconds: Math.round(m.cpuMs) / 1000,
          ratio: Math.round((100 * m.cpuMs) / base) / 100,
          peakRssMB: Math.round(m.maxRssMB),
        };
      }
      if (protocol === 'aep') {
        const verbs: [string, string[]][] = [
          ['filter --where {}', ['filter', '--where', '{}']],
          ['redact', ['redact']],
          ['downlevel --ceiling metadata', ['downlevel', '--ceiling', 'metadata']],
          ['convert --to cloudevents', ['convert', '--to', 'cloudevents']],
          ['convert --to otlp', ['convert', '--to', 'otlp']],
        ];
        console.log(
          `  verbs that write a stream, the reader waiting ${fmt(o.slowMs / 1000, 0)} s before it drains (peak RSS):`,
        );
        const slow: Record<string, number> = {};
        for (const [label, args] of verbs) {
          const m = await measure([bin, ...args, file], { slowMs: o.slowMs });
          console.log(`    ${label.padEnd(30)} ${fmt(m.maxRssMB, 0).padStart(4)} MB  (exit ${m.code})`);
          slow[label] = Math.round(m.maxRssMB);
        }
        json.slowReaderPeakRssMB = slow;
      }
      out.push(json);
      rmSync(file);
      rmSync(gz);
    }
  } finally {
    removeScratch(dir);
  }
  return out;
}
