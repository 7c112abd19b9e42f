/**
 * The page of `--format html`: its styles and script (inline: no network resource), and HTML escaping. The reporters
 * in html.ts write the body.
 */

import { createRequire } from 'node:module';

/** Escape text for an HTML element or a double-quoted attribute. */
export function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
:root{--bg:#f6f7f9;--card:#fff;--ink:#1d2330;--dim:#667085;--line:#e4e7ec;--err:#c4320a;--err-bg:#fef3f2;--warn:#b54708;--warn-bg:#fffaeb;--info:#175cd3;--info-bg:#eff8ff;--ok:#067647;--attention:#7a5af8;--control:#0e9384;--rpc:#6172f3;--elicitation:#dd2590;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif}
code,.mono{font-family:ui-monospace,"SF Mono",Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12.5px}
a{color:var(--info)}
header.top{background:#101828;color:#fff;padding:18px 28px 16px}
header.top h1{margin:0 0 4px;font-size:20px;font-weight:650}
header.top .sub{color:#cbd5e1;font-size:13px}
.verdict{display:inline-block;margin-top:10px;padding:3px 10px;border-radius:999px;font-weight:600;font-size:13px}
.verdict.fail{background:var(--err);color:#fff}.verdict.pass{background:var(--ok);color:#fff}
.counts{display:flex;gap:10px;flex-wrap:wrap;margin-top:12px}
.count{background:rgba(255,255,255,.08);border-radius:8px;padding:6px 12px;min-width:88px}
.count b{display:block;font-size:20px}.count span{color:#cbd5e1;font-size:12px}
nav.filters{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid var(--line);padding:8px 28px;display:flex;gap:16px;align-items:center;flex-wrap:wrap;box-shadow:0 1px 2px rgba(16,24,40,.05)}
nav.filters label{display:inline-flex;gap:5px;align-items:center;cursor:pointer}
nav.filters select{font:inherit;padding:3px 6px;max-width:380px}
nav.filters .shown{color:var(--dim);margin-left:auto}
main{padding:18px 28px 48px;max-width:1400px}
section.input,section.block{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin:0 0 18px}
section.input>h2{margin:0 0 2px;font-size:17px;word-break:break-all}
h3{font-size:14px;margin:18px 0 8px;text-transform:uppercase;letter-spacing:.04em;color:var(--dim)}
.line-sum{color:var(--dim)}
.sev{display:inline-block;min-width:58px;text-align:center;border-radius:4px;padding:0 6px;font-size:11.5px;font-weight:650;text-transform:uppercase;letter-spacing:.03em}
.sev.error{background:var(--err-bg);color:var(--err);border:1px solid #fecdca}
.sev.warning{background:var(--warn-bg);color:var(--warn);border:1px solid #fedf89}
.sev.info{background:var(--info-bg);color:var(--info);border:1px solid #b2ddff}
details.rule{border:1px solid var(--line);border-radius:8px;margin:0 0 8px;overflow:hidden}
details.rule>summary{cursor:pointer;padding:8px 12px;background:#fcfcfd;display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
details.rule>summary .n{color:var(--dim)}
details.rule>summary .desc{color:var(--dim);flex-basis:100%;padding-left:68px;font-size:13px}
.cite{font-size:12.5px}
table{border-collapse:collapse;width:100%}
td,th{text-align:left;vertical-align:top;padding:4px 8px;border-top:1px solid var(--line)}
th{font-size:12px;color:var(--dim);font-weight:600;border-top:0}
table.findings td.loc{white-space:nowrap;width:1%}
table.findings td.ptr{color:var(--dim);word-break:break-all;width:20%}
table.types td.n{text-align:right;width:1%;font-variant-numeric:tabular-nums}
.unknown{color:var(--warn);font-size:12px}
.types-wrap{columns:3 260px;column-gap:24px}
.types-wrap div{break-inside:avoid;display:flex;justify-content:space-between;border-bottom:1px dotted var(--line);padding:2px 0}
.types-wrap .n{color:var(--dim);font-variant-numeric:tabular-nums}
section.session{margin:12px 0 0;border:1px solid var(--line);border-radius:8px;overflow:hidden}
section.session>h4{margin:0;padding:8px 12px;background:#f2f4f7;font-size:13.5px;display:flex;gap:12px;flex-wrap:wrap}
section.session>h4 .dim,section.input>h2 .dim{color:var(--dim);font-weight:400}
table.tl td{border-top:1px solid #f2f4f7;padding:3px 8px}
table.tl tr.has-f{background:#fffbfa}
table.tl tr.has-f.only-info{background:#f5faff}
table.tl td.g{position:relative;padding:0;min-width:12px}
table.tl td.ln,table.tl td.sq{white-space:nowrap;color:var(--dim);text-align:right;width:1%}
table.tl td.tm{white-space:nowrap;color:var(--dim);width:1%}
table.tl td.ty{white-space:nowrap}
table.tl td.ty .m{color:var(--dim)}
table.tl tr.gap td{color:var(--dim);font-style:italic;background:repeating-linear-gradient(135deg,#fafafa 0 6px,#f2f4f7 6px 12px);text-align:center}
table.tl tr.not-event td.ty{color:var(--err);font-style:italic}
.lane{position:absolute;width:2px;top:0;bottom:0}
.lane.start{top:13px}.lane.end{bottom:auto;height:13px}
.lane.dot::after{content:"";position:absolute;left:-4px;top:8px;width:10px;height:10px;border-radius:50%;background:inherit;box-shadow:0 0 0 2px #fff}
.lane.start.dot::after{top:-5px}.lane.end.dot::after{top:auto;bottom:-5px}
.k-attention{background:var(--attention)}.k-control{background:var(--control)}.k-rpc{background:var(--rpc)}.k-elicitation{background:var(--elicitation)}
.link{font-size:12px;white-space:nowrap;border-radius:4px;padding:0 5px;color:#fff;margin-right:4px}
.tf{margin:1px 0}.tf .msg{margin-left:6px}.tf code{color:var(--dim)}
.more{color:var(--dim);font-size:12.5px}
.note{color:var(--dim);font-size:13px;margin:6px 0}
.legend{display:flex;gap:14px;flex-wrap:wrap;font-size:12.5px;color:var(--dim);margin:4px 0 8px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:4px;vertical-align:-1px}
table.cases td.st{white-space:nowrap;font-weight:600;width:1%}
table.cases td{padding:3px 8px}
table.cases table.findings{margin-top:4px}
.st-pass{color:var(--ok)}.st-fail,.st-error{color:var(--err)}.st-deviation{color:var(--warn)}.st-skip,.st-not-run{color:var(--dim)}
footer{color:var(--dim);font-size:12px;padding:0 28px 24px}
@media (prefers-color-scheme:dark){:root{--bg:#0c111d;--card:#161b26;--ink:#e4e7ec;--dim:#98a2b3;--line:#2a3140;color-scheme:dark}
nav.filters{background:#161b26}details.rule>summary,section.session>h4{background:#1f242f}table.tl td{border-top-color:#1f242f}
table.tl tr.has-f{background:#2a1a17}table.tl tr.has-f.only-info{background:#13233a}
table.tl tr.gap td{background:repeating-linear-gradient(135deg,#161b26 0 6px,#1f242f 6px 12px)}.lane.dot::after{box-shadow:0 0 0 2px var(--card)}}
`;

// Filters rewrite one style element: a severity unchecked or another rule chosen hides its rows, whatever their count.
const SCRIPT = `
(function(){
var st=document.getElementById('flt');
var boxes=[].slice.call(document.querySelectorAll('input[data-filter-sev]'));
var statuses=[].slice.call(document.querySelectorAll('input[data-filter-status]'));
var rule=document.getElementById('rule-filter');
var shown=document.getElementById('shown');
var all=[].slice.call(document.querySelectorAll('tr.f'));
function apply(){
  var css='';
  boxes.forEach(function(b){if(!b.checked)css+='[data-sev="'+b.getAttribute('data-filter-sev')+'"]{display:none}';});
  statuses.forEach(function(b){if(!b.checked)css+='tr.case[data-status="'+b.getAttribute('data-filter-status')+'"]{display:none}';});
  if(rule&&rule.value)css+='[data-rule]:not([data-rule="'+CSS.escape(rule.value)+'"]){display:none}';
  st.textContent=css;
  if(shown)shown.textContent=all.filter(isShown).length.toLocaleString('en-US')+' of '+all.length.toLocaleString('en-US')+' findings shown';
}
function isShown(tr){var sv=tr.getAttribute('data-sev');for(var i=0;i<boxes.length;i++)if(boxes[i].getAttribute('data-filter-sev')===sv&&!boxes[i].checked)return false;return !(rule&&rule.value&&tr.getAttribute('data-rule')!==rule.value);}
boxes.concat(statuses).forEach(function(b){b.addEventListener('change',apply);});
if(rule)rule.addEventListener('change',apply);
apply();
})();
`;

let scriptHash: string | undefined;

/**
 * The CSP source of the one script: its digest, not 'unsafe-inline', so that markup an escaping slip let into the page
 * could not run a script of its own (node:crypto through require: the CLI bundles load it only for an html report).
 */
function scriptSource(): string {
  const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  scriptHash ??= crypto.createHash('sha256').update(SCRIPT).digest('base64');
  return `'sha256-${scriptHash}'`;
}

/** The page head up to `<body>`: title, charset, a content policy that allows no network request, style. */
export function pageHead(title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptSource()}; img-src data:">
<meta name="generator" content="agent-conformance">
<title>${htmlEscape(title)}</title>
<style>${STYLE}</style>
<style id="flt"></style>
</head>
<body>
`;
}

/** The page end: the filter script and `</html>`. */
export function pageTail(): string {
  return `<script>${SCRIPT}</script>\n</body>\n</html>\n`;
}
