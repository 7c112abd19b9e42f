/**
 * `--format html` in a real browser: Debian's Chromium (/usr/bin/chromium, installed by .ci/run) driven by
 * playwright-core, no browser download. The page loads offline with no console error and no request but the file
 * itself, shows every finding, and its severity and rule filters hide exactly what they name. The screenshot test
 * asserts properties of the rendered image that fonts and anti-aliasing do not move: the pair lane of the attention
 * request is drawn in its colour from the request's row to the resolution's row; no pixel-by-pixel golden.
 * Without Chromium the tests skip, unless CI is set: there they fail.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import type { Finding } from '../../src/core/finding.ts';
import { runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** False (and the test skipped) when Chromium is absent outside CI; in CI its absence fails the test. */
function haveChromium(t: TestContext): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) assert.fail(`${CHROMIUM} is absent: .ci/run installs Debian's chromium before the tests`);
  t.skip(`${CHROMIUM} is absent (apt-get install -y chromium); the browser test of --format html is skipped`);
  return false;
}

type Page = import('playwright-core').Page;

/** Open `html` in a fresh Chromium profile; `use` gets the page and what the browser reported. */
async function withPage(
  t: TestContext,
  html: string,
  use: (page: Page, seen: { requests: string[]; errors: string[] }) => Promise<void>,
): Promise<void> {
  const { chromium } = await import('playwright-core');
  const dir = tempDir(t, 'ac-html-');
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const url = pathToFileURL(file).href;
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
    offline: true,
  });
  const seen = { requests: [] as string[], errors: [] as string[] };
  try {
    // every request but the page itself is refused and recorded
    await context.route('**/*', (route) => {
      const u = route.request().url();
      if (u === url) return route.continue();
      seen.requests.push(u);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('request', (r) => {
      if (r.url() !== url) seen.requests.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') seen.errors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => seen.errors.push(`pageerror: ${e.message}`));
    await page.goto(url, { waitUntil: 'load' });
    await use(page, seen);
  } finally {
    await context.close();
  }
}

async function report(bin: 'aep' | 'ahp', file: string): Promise<{ html: string; findings: Finding[] }> {
  const html = (await runCli(bin, ['validate', '--format', 'html', file])).stdout;
  const json = (await runCli(bin, ['validate', '--format', 'json', file])).stdout;
  return { html, findings: (JSON.parse(json) as { findings: Finding[] }).findings };
}

test('html in Chromium: loads offline with no console error and no request, shows every finding; the filters work', async (t) => {
  if (!haveChromium(t)) return;
  const { html, findings } = await report('ahp', 'examples/ahp/session-broken.jsonl');
  const sevs = new Set(findings.map((f) => f.severity));
  assert.ok(sevs.has('error') && sevs.has('info'), 'the example has errors and infos');
  await withPage(t, html, async (page, seen) => {
    const rows = page.locator('tr.f');
    assert.equal(await rows.count(), findings.length);
    const visibleRows = async () => (await rows.evaluateAll((els) => els.filter((e) => e.checkVisibility()))).length;
    assert.equal(await visibleRows(), findings.length);
    // each finding's message is on the screen (the list by rule is open for a small run)
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, what a person sees
    const text = await page.locator('main').innerText();
    for (const f of findings) assert.ok(text.includes(f.message), f.message);
    assert.equal(await page.locator('#shown').textContent(), `${findings.length} of ${findings.length} findings shown`);

    // severity: errors off leaves the rest, in the list and on the timeline
    await page.locator('input[data-filter-sev="error"]').uncheck();
    const notErrors = findings.filter((f) => f.severity !== 'error').length;
    assert.equal(await visibleRows(), notErrors);
    const markers = page.locator('div.tf');
    const shownMarkers = await markers.evaluateAll((els) =>
      els.filter((e) => e.checkVisibility()).map((e) => e.getAttribute('data-sev')),
    );
    assert.ok(shownMarkers.length > 0 && shownMarkers.every((s) => s !== 'error'));
    assert.equal(await page.locator('#shown').textContent(), `${notErrors} of ${findings.length} findings shown`);
    await page.locator('input[data-filter-sev="error"]').check();
    assert.equal(await visibleRows(), findings.length);

    // rule: one rule chosen shows its findings only
    const byRule = new Map<string, number>();
    for (const f of findings) byRule.set(f.ruleId, (byRule.get(f.ruleId) ?? 0) + 1);
    const [rule, n] = [...byRule].sort((a, b) => b[1] - a[1])[0]!;
    await page.locator('#rule-filter').selectOption(rule);
    assert.equal(await visibleRows(), n);
    const ruleMarkers = await markers.evaluateAll((els) =>
      els.filter((e) => e.checkVisibility()).map((e) => e.getAttribute('data-rule')),
    );
    assert.ok(ruleMarkers.length > 0 && ruleMarkers.every((r) => r === rule));
    await page.locator('#rule-filter').selectOption('');
    assert.equal(await visibleRows(), findings.length);

    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.requests, []);
  });
});

/** An 8-bit RGB or RGBA PNG as Chromium writes it, decoded: width, height, and the RGB of a pixel. */
function decodePng(buf: Buffer): {
  width: number;
  height: number;
  rgb(x: number, y: number): [number, number, number];
} {
  assert.equal(buf.toString('latin1', 1, 4), 'PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 4;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, 'bit depth 8');
      assert.equal(data[12], 0, 'not interlaced');
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : assert.fail(`colour type ${data[9]}`);
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? px[y * stride + x - channels]! : 0;
      const b = y > 0 ? px[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? px[(y - 1) * stride + x - channels]! : 0;
      const p = a + b - c;
      const pred =
        filter === 0
          ? 0
          : filter === 1
            ? a
            : filter === 2
              ? b
              : filter === 3
                ? (a + b) >> 1
                : Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
                  ? a
                  : Math.abs(p - b) <= Math.abs(p - c)
                    ? b
                    : c;
      px[y * stride + x] = (line[x]! + pred) & 0xff;
    }
  }
  return {
    width,
    height,
    rgb: (x, y) => {
      const i = y * stride + x * channels;
      return [px[i]!, px[i + 1]!, px[i + 2]!];
    },
  };
}

test('html in Chromium, screenshot of examples/aep/session-broken.jsonl: the attention pair is drawn from its request to its resolution', async (t) => {
  if (!haveChromium(t)) return;
  const { html } = await report('aep', 'examples/aep/session-broken.jsonl');
  await withPage(t, html, async (page, seen) => {
    const session = page.locator('section.session').first();
    const box = (await session.boundingBox())!;
    // a lane's dot is at the middle of its row's first text line, 13 CSS pixels below the row's top
    const rowDot = async (line: number) => (await page.locator(`#e-0-${line}`).boundingBox())!.y - box.y + 13;
    const [request, answer, resolution, after] = [await rowDot(5), await rowDot(6), await rowDot(7), await rowDot(8)];
    const png = decodePng(await session.screenshot({ animations: 'disabled' }));
    // the attention colour (#7a5af8) within a few units, in the gutter at the left of the table
    const lane = (x: number, y: number) => {
      const [r, g, b] = png.rgb(x, y);
      return Math.abs(r - 0x7a) < 24 && Math.abs(g - 0x5a) < 24 && Math.abs(b - 0xf8) < 24;
    };
    const rows: number[] = [];
    for (let y = 0; y < png.height; y++) for (let x = 0; x < 40; x++) if (lane(x, y)) rows.push(y);
    assert.ok(rows.length > 0, 'the attention lane is drawn');
    const top = Math.min(...rows);
    const bottom = Math.max(...rows);
    // from the request's dot to the resolution's (a dot reaches 5 pixels past its centre)
    assert.ok(Math.abs(top - request) <= 8, `lane starts at ${top}, the request row's dot is at ${request}`);
    assert.ok(
      Math.abs(bottom - resolution) <= 8,
      `lane ends at ${bottom}, the resolution row's dot is at ${resolution}`,
    );
    assert.ok(
      rows.some((y) => Math.abs(y - answer) <= 2),
      'the lane passes the answer',
    );
    assert.ok(bottom < after - 13, 'and stops before the next event');
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.requests, []);
  });
});
