/** The timeline and event-type sections of an input on the `validate` page (the data of src/report/timeline.ts). */
import type { LinkKind } from '../core/event-facts.ts';
import { htmlEscape as esc } from './html-page.ts';
import { type SessionTimeline, type Timeline, type TimelineEvent, TIMELINE_MAX_SESSIONS } from './timeline.ts';
import type { Output } from './types.ts';
import { cmpText } from './util.ts';
import { NUMBER, plural, sevBadge } from './html-parts.ts';

/** Lanes drawn for pairs in one session; a pair beyond them is named in words only. */
const MAX_LANES = 6;
const LANE_STEP = 12;

const PAIR_LABEL: Record<LinkKind, string> = {
  attention: 'answer, resolution',
  control: 'ack',
  rpc: 'response',
  elicitation: 'result',
};

const KIND_LABEL: Record<LinkKind, string> = {
  attention: 'attention request',
  control: 'command',
  rpc: 'request',
  elicitation: 'elicitation request',
};

/** Close an input's section: its timeline per session, its event types, and what the timeline left out. */
export function inputTail(
  w: Output,
  source: string,
  i: number,
  timeline: Timeline,
  knownTypes: readonly string[] | undefined,
  /** What a timeline row is: an AHP message, an AEP event (unitOf in util.ts). */
  unit: 'message' | 'event' = 'event',
): void {
  const facts = timeline.inputFacts(source);
  let s = '';
  const sessions = timeline.sessionsOf(source);
  if (sessions.length) {
    s += `<h3 id="in-${i}-timeline">Timeline</h3>\n`;
    // the kinds of pair this input's timeline has
    const kinds = new Set<LinkKind>();
    for (const session of sessions)
      for (const e of session.events) for (const g of e.opens) kinds.add(timeline.group(g)?.kind ?? 'rpc');
    const legend = (['attention', 'control', 'rpc', 'elicitation'] as const)
      .filter((x) => kinds.has(x))
      .map((k) => `<span><i class="k-${k}"></i>${KIND_LABEL[k]} → ${PAIR_LABEL[k]}</span>`)
      .join('');
    if (legend) s += `<div class="legend">${legend}</div>\n`;
    w.write(s);
    s = '';
    for (const session of sessions) sessionBlock(w, session, i, timeline, unit);
  }
  if (facts?.types.size) {
    const known = new Set(knownTypes ?? []);
    const rows = [...facts.types].sort((a, b) => b[1] - a[1] || cmpText(a[0], b[0]));
    const exercised = rows.filter(([t]) => known.has(t)).length;
    const missing = (knownTypes ?? []).filter((t) => !facts.types.has(t));
    s += `<h3 id="in-${i}-types">Event types</h3>\n<p class="note">${exercised} of ${known.size} known event types exercised${rows.length > exercised ? `, ${plural(rows.length - exercised, 'other type')}` : ''}.</p>\n<div class="types-wrap">${rows
      .map(
        ([t, n]) =>
          `<div><span><code>${esc(t)}</code>${known.size && !known.has(t) ? ' <span class="unknown">not a known type</span>' : ''}</span><span class="n">${NUMBER.format(n)}</span></div>`,
      )
      .join('')}</div>\n`;
    if (missing.length)
      s += `<details><summary class="note">${plural(missing.length, 'known type')} not exercised</summary><div class="types-wrap">${missing.map((t) => `<div><code>${esc(t)}</code></div>`).join('')}</div></details>\n`;
  }
  if (facts && (facts.offTimeline || facts.otherSessions))
    s += `<p class="note">Left out of the timeline: ${[facts.otherSessions ? `${plural(facts.otherSessions, unit)} of sessions past the first ${TIMELINE_MAX_SESSIONS}` : '', facts.offTimeline ? `${plural(facts.offTimeline, 'finding')} whose event is not kept or that name no line` : ''].filter(Boolean).join('; ')} (every finding is in the list by rule).</p>\n`;
  w.write(`${s}</section>\n`);
}

/** Lanes of the pairs in one session's rows: for each row, what each lane draws there. */
function lanes(events: readonly TimelineEvent[]): { width: number; cells: string[][]; paired: Set<number> } {
  const members = new Map<number, number[]>();
  events.forEach((e, row) => {
    for (const g of e.opens) (members.get(g) ?? members.set(g, []).get(g)!).push(row);
    for (const j of e.joins) (members.get(j.group) ?? members.set(j.group, []).get(j.group)!).push(row);
  });
  const spans = [...members]
    .filter(([, rows]) => rows.length > 1)
    .map(([g, rows]) => ({ g, rows, from: Math.min(...rows), to: Math.max(...rows) }))
    .sort((a, b) => a.from - b.from || a.g - b.g);
  const laneEnd: number[] = [];
  const cells: string[][] = events.map(() => []);
  for (const sp of spans) {
    let lane = laneEnd.findIndex((end) => end < sp.from);
    if (lane === -1) {
      if (laneEnd.length >= MAX_LANES) continue;
      lane = laneEnd.push(0) - 1;
    }
    laneEnd[lane] = sp.to;
    const at = new Set(sp.rows);
    for (let r = sp.from; r <= sp.to; r++) {
      const part = r === sp.from ? 'start' : r === sp.to ? 'end' : 'mid';
      cells[r]!.push(`${lane}|${part}${at.has(r) ? ' dot' : ''}|${sp.g}`);
    }
  }
  return { width: laneEnd.length, cells, paired: new Set(spans.map((sp) => sp.g)) };
}

function sessionBlock(w: Output, s: SessionTimeline, i: number, timeline: Timeline, unit: 'message' | 'event'): void {
  const name = s.notEvents
    ? `lines that are not ${unit}s`
    : s.session === undefined
      ? 'no session'
      : `session <code>${esc(s.session)}</code>`;
  const withF = s.events.filter((e) => e.findings.length || e.moreFindings).length;
  const kept = s.events.length;
  const head = `<h4>${name} <span class="dim">${plural(s.seen, s.notEvents ? 'line' : unit)}${kept < s.seen ? `, ${kept} shown` : ''} · ${withF} with findings</span></h4>`;
  const { width, cells, paired } = lanes(s.events);
  const kindOf = (g: number) => timeline.group(g)?.kind ?? 'rpc';
  const gw = width ? width * LANE_STEP + 14 : 8;
  w.write(
    `<section class="session">${head}<table class="tl"><thead><tr><th></th><th>line</th><th>seq</th><th>time</th><th>type</th><th>pairs and findings</th></tr></thead><tbody>\n`,
  );
  let prev = 0;
  const gap = (n: number) =>
    `<tr class="gap"><td colspan="6">⋯ ${plural(n, unit)} of this session not shown (no finding near them)</td></tr>\n`;
  s.events.forEach((e, row) => {
    if (e.ord - prev > 1) w.write(gap(e.ord - prev - 1));
    prev = e.ord;
    const sevs = new Set(e.findings.map((f) => f.severity));
    const cls = ['ev'];
    if (e.findings.length || e.moreFindings) cls.push('has-f');
    if (sevs.size === 1 && sevs.has('info')) cls.push('only-info');
    if (e.notEvent) cls.push('not-event');
    const g = cells[row]!.map((c) => {
      const [lane, part, grp] = c.split('|');
      return `<span class="lane ${part} k-${kindOf(Number(grp))}" style="left:${9 + Number(lane) * LANE_STEP}px"></span>`;
    }).join('');
    const links = [
      ...e.opens
        .filter((gr) => paired.has(gr))
        .map((gr) => `<span class="link k-${kindOf(gr)}">${KIND_LABEL[kindOf(gr)]}</span>`),
      ...e.joins.map((j) => {
        const grp = timeline.group(j.group);
        return `<span class="link k-${kindOf(j.group)}">${esc(j.role)}${grp ? ` ← line ${grp.line}` : ''}</span>`;
      }),
    ].join('');
    const fs = e.findings
      .map(
        (f) =>
          `<div class="tf" data-sev="${f.severity}" data-rule="${esc(f.ruleId)}">${sevBadge(f.severity)} <code>${esc(f.ruleId)}</code><span class="msg">${esc(f.message)}</span></div>`,
      )
      .join('');
    const more = e.moreFindings
      ? `<div class="more">+${plural(e.moreFindings, 'more finding')} on this line (in the list by rule)</div>`
      : '';
    const type = e.notEvent
      ? 'not an event'
      : e.type !== undefined
        ? `<code>${esc(e.type)}</code>${e.method !== undefined ? ` <span class="m">${esc(e.method)}</span>` : ''}`
        : e.method !== undefined
          ? `<span class="m">${esc(e.method)}</span>`
          : '<span class="m">no type</span>';
    w.write(
      `<tr id="e-${i}-${e.line}" class="${cls.join(' ')}"><td class="g" style="width:${gw}px">${g}</td><td class="ln mono">${e.line}</td><td class="sq mono">${e.seq ?? ''}</td><td class="tm mono">${e.time !== undefined ? esc(e.time) : ''}</td><td class="ty">${type}</td><td class="fx">${links}${fs}${more}</td></tr>\n`,
    );
  });
  if (s.seen > prev) w.write(gap(s.seen - prev));
  w.write('</tbody></table></section>\n');
}
