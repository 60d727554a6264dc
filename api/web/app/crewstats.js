// crewstats.js is a crew's figures (#c=ID&v=stats), read from GET
// /v1/crews/{id}/stats: the season table, one member's lifetime record
// (nights, rounds, wins, win rate per game, automatics, biggest pot,
// scores made, head to head) with their money night by night drawn as an
// inline SVG line, and the dice fairness card (fairness.js). The server
// computes every figure; the phone only draws them.

import { h, add, svg, money, replace } from './dom.js';
import * as api from './api.js';
import { fairnessCard } from './fairness.js';

/** statsLink is the crew page's way to the figures. */
export function statsLink(c) {
  return h('section.card', h('a.button', { href: `#c=${c.id}&v=stats`, 'data-testid': 'to-stats' }, 'Season table, figures and dice'));
}

/** statsView draws the figures into el, reading them the first time. */
export function statsView(el, c) {
  const ui = c.ui.stats || (c.ui.stats = { member: c.me });
  if (!ui.data) {
    el.append(h('p.card.muted', ui.error || 'Reading every night…'));
    if (!ui.busy) {
      ui.busy = true;
      api.get(`/v1/crews/${c.id}/stats`, c.token).then((data) => { ui.data = data; }, (err) => { ui.error = err.message; })
        .finally(() => { ui.busy = false; c.render(true); });
    }
    return;
  }
  const d = ui.data;
  const cur = c.table.currency;
  if (!d.members.some((m) => m.member === ui.member)) ui.member = (d.season[0] || d.members[0] || {}).member;
  const m = d.members.find((x) => x.member === ui.member);
  const draw = () => { replace(el); statsView(el, c); };
  add(el, seasonCard(d, cur),
    h('section.card', { 'data-testid': 'member-figures' }, h('h2', 'A member’s record'),
      h('div.pick', d.members.map((x) => h('button.member', { type: 'button', class: x.member === ui.member ? 'on' : '', dataset: { name: x.name },
        'aria-pressed': String(x.member === ui.member), onclick: () => { ui.member = x.member; draw(); } }, x.name))),
      m && memberFigures(m, cur)),
    fairnessCard(d.dice));
}

const pct = (r) => `${Math.round(r * 100)}%`;
const signed = (n, cur) => `${n > 0 ? '+' : ''}${money(n, cur)}`;

// seasonCard is the season table: best first, by net money, then wins.
function seasonCard(d, cur) {
  return h('section.card', { 'data-testid': 'season' }, h('h2', 'Season table'),
    h('p.muted.small', `${d.nights} ${d.nights === 1 ? 'night' : 'nights'}, ${d.rounds} rounds`),
    h('table.season', h('thead', h('tr', ['#', 'Member', 'Nights', 'Wins', 'Net'].map((t) => h('th', t)))),
      h('tbody', d.season.map((s) => h('tr', { dataset: { name: s.name } }, h('td', String(s.rank)), h('td', s.name),
        h('td', String(s.nights)), h('td', `${s.wins} (${pct(s.winRate)})`),
        h('td', { class: s.net > 0 ? 'plus' : s.net < 0 ? 'minus' : '' }, signed(s.net, cur)))))));
}

// memberFigures is one member's lifetime record.
function memberFigures(m, cur) {
  const fact = (label, value) => h('div.fact', h('span.label', label), h('b', value));
  return [
    h('div.facts', fact('Nights', String(m.nights)), fact('Rounds', String(m.rounds)), fact('Wins', `${m.wins} (${pct(m.winRate)})`),
      fact('Net', signed(m.net, cur)), fact('Automatics', String(m.automatics)), fact('Biggest pot', money(m.biggestPot, cur))),
    h('h3', 'Money night by night'),
    netPlot(m, cur),
    m.presets.length > 0 && [h('h3', 'Win rate per game'), h('ul.scores', m.presets.map((p) =>
      h('li', h('span', p.preset), h('b', `${p.wins} of ${p.rounds} (${pct(p.winRate)})`))))],
    m.scores.length > 0 && [h('h3', 'Scores made'), scoreBars(m)],
    m.rivals.length > 0 && [h('h3', 'Head to head'), h('ul.scores', { 'data-testid': 'rivals' }, m.rivals.map((r) =>
      h('li', h('span', `vs ${r.name}`), h('b', `${r.won} won, ${r.lost} lost${r.even ? `, ${r.even} even` : ''}`))))],
  ];
}

/**
 * netPlot draws a member's running total night by night as a line from
 * zero before the first night, zero marked, each night a dot (green when
 * the night was won, red when lost) with its total above it and its date
 * under it. The viewBox scales to the card's width; the SVG carries its
 * colours as attributes (the page's CSP takes no inline styles).
 */
export function netPlot(m, cur) {
  const pts = m.netByNight;
  if (!pts.length) return h('p.muted', 'No closed nights yet.');
  const W = 340;
  const H = 190;
  const pad = { l: 16, r: 16, t: 24, b: 30 };
  const totals = [0, ...pts.map((p) => p.total)];
  const lo = Math.min(...totals);
  const hi = Math.max(...totals);
  const span = hi - lo || 1;
  const x = (i) => pad.l + (i * (W - pad.l - pad.r)) / pts.length; // i = 0 is before the first night
  const y = (v) => pad.t + ((hi - v) * (H - pad.t - pad.b)) / span;
  const path = totals.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(' ');
  const label = (t, ax, ay, anchor, fill = '#aab4c3') => svg('text', { x: ax, y: ay, 'text-anchor': anchor, 'font-size': 12, fill }, t);
  const anchor = (i) => (i === pts.length ? 'end' : 'middle');
  return h('div.plot', { 'data-testid': 'net-plot' }, svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img',
    'aria-label': `${m.name}: ${pts.map((p) => `${p.night} ${signed(p.net, cur)}, total ${signed(p.total, cur)}`).join('; ')}` },
  svg('line', { x1: pad.l, x2: W - pad.r, y1: y(0), y2: y(0), stroke: '#3b4556', 'stroke-dasharray': '4 4' }),
  label('start', x(0), H - 8, 'start'),
  svg('path', { d: path, fill: 'none', stroke: '#ffd23f', 'stroke-width': 3, 'stroke-linejoin': 'round' }),
  ...pts.flatMap((p, i) => [
    svg('circle', { cx: x(i + 1), cy: y(p.total), r: 5, fill: p.net >= 0 ? '#5be37d' : '#ff8a8a', 'data-total': p.total }),
    label(`${p.total > 0 ? '+' : ''}${p.total}`, x(i + 1), y(p.total) - 10, anchor(i + 1), '#f4f4f4'),
    label(shortDay(p.played), x(i + 1), H - 8, anchor(i + 1)),
  ])));
}

// scoreBars draws how often each score was made, as bars.
function scoreBars(m) {
  const most = Math.max(1, ...m.scores.map((s) => s.rounds));
  const W = 340;
  const row = 22;
  return h('div.plot', svg('svg', { viewBox: `0 0 ${W} ${m.scores.length * row + 4}`, role: 'img',
    'aria-label': m.scores.map((s) => `${s.score}: ${s.rounds}`).join(', ') },
  ...m.scores.flatMap((s, i) => [
    svg('text', { x: 30, y: i * row + 16, 'text-anchor': 'end', 'font-size': 12, fill: '#aab4c3' }, String(s.score)),
    svg('rect', { x: 38, y: i * row + 4, height: 15, width: Math.max(2, ((W - 80) * s.rounds) / most), rx: 3, fill: '#4cc9f0' }),
    svg('text', { x: 44 + ((W - 80) * s.rounds) / most, y: i * row + 16, 'font-size': 12, fill: '#f4f4f4' }, String(s.rounds)),
  ])));
}

const shortDay = (iso) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
