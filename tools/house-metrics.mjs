#!/usr/bin/env node
// Numbers of issue "A house a newcomer can carry on", measured over src/: findings built from
// inline sentences, private copies of the small helpers, comment share, generated line lengths,
// long files. `node tools/house-metrics.mjs [--json]`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const walk = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
const files = walk(join(root, 'src'));
const ts = files.filter((f) => f.endsWith('.ts'));
const generated = files.filter((f) => f.includes('/src/generated/'));
const handTs = ts.filter((f) => !f.includes('/src/generated/'));

let nonBlank = 0;
let commentLines = 0;
let reportCalls = 0;
let inlineMessages = 0;
let longLines = 0;
const isObjDefs = [];
const objTypes = [];
const ownDefs = [];
const bigFiles = [];
for (const f of handTs) {
  const text = readFileSync(f, 'utf8');
  const lines = text.split('\n');
  let inBlock = false;
  for (const raw of lines) {
    const l = raw.trim();
    if (!l) continue;
    nonBlank++;
    if (raw.length > 120) longLines++;
    if (inBlock) {
      commentLines++;
      if (l.includes('*/')) inBlock = false;
      continue;
    }
    if (l.startsWith('//')) commentLines++;
    else if (l.startsWith('/*')) {
      commentLines++;
      if (!l.includes('*/')) inBlock = true;
    }
  }
  const rel = relative(root, f);
  if (lines.length > 400) bigFiles.push(`${rel} (${lines.length})`);
  reportCalls += (text.match(/\bctx\.report\(/g) ?? []).length;
  inlineMessages += (text.match(/\bmessage:\s*[`'"]/g) ?? []).length;
  if (/^(?:export )?(?:function|const) isObj\b/m.test(text)) isObjDefs.push(rel);
  if (/^(?:export )?type Obj\b/m.test(text)) objTypes.push(rel);
  if (/^(?:export )?(?:function|const) own\b/m.test(text)) ownDefs.push(rel);
}
let longestGenerated = 0;
let longestGeneratedFile = '';
for (const f of generated) {
  for (const line of readFileSync(f, 'utf8').split('\n')) {
    if (line.length > longestGenerated) {
      longestGenerated = line.length;
      longestGeneratedFile = relative(root, f);
    }
  }
}
const out = {
  files: handTs.length,
  nonBlankLines: nonBlank,
  commentShare: +(commentLines / nonBlank).toFixed(3),
  ctxReportCalls: reportCalls,
  inlineMessageLiterals: inlineMessages,
  linesOver120: longLines,
  isObjDefinitions: isObjDefs.length,
  objTypeDefinitions: objTypes.length,
  ownDefinitions: ownDefs.length,
  filesOver400Lines: bigFiles,
  generatedFiles: generated.length,
  generatedBytes: generated.reduce((n, f) => n + statSync(f).size, 0),
  longestGeneratedLine: longestGenerated,
  longestGeneratedLineFile: longestGeneratedFile,
};
if (process.argv.includes('--json')) console.log(JSON.stringify(out, null, 2));
else
  for (const [k, v] of Object.entries(out))
    console.log(`${k}: ${Array.isArray(v) ? `${v.length}${v.length ? `\n  ${v.join('\n  ')}` : ''}` : v}`);
