// @ts-check
// crewstats.js is a crew's figures (#c=ID&v=stats), read from GET
// /v1/crews/{id}/stats: the season table, one member's lifetime record
// (nights, rounds, wins, win rate per game, automatics, biggest pot,
// scores made, head to head) with their money night by night drawn as an
// inline SVG line, and the dice fairness card: for the table's dice and
// each member's, the faces against fair dice and the chi-square verdict in
// plain words, judged only with enough throws. The server computes every
// figure; the phone only draws them.

import { h, add, svg, money, signed, replace, message } from './dom.js';
import * as api from './api.js';

/** @typedef {import('./crew.js').ReadyCrew} ReadyCrew */
/** @typedef {api.Schemas['MemberFigures']} MemberFigures */
/** @typedef {api.Schemas['DiceCheck']} DiceCheck */

/**
 * StatsUI is the crew's figures as read (c.ui.stats) and the member shown.
 * @typedef {import('./page.js').Card & { member?: number, data?: api.CrewStats }} StatsUI
 */

/** statsLink is the crew page's way to the figures. @param {ReadyCrew} c */
export function statsLink(c) {
  return h('section.card', h('a.button', { href: `#c=${c.id}&v=stats`, 'data-testid': 'to-stats' }, 'Season table, figures and dice'));
}

/** statsView draws the figures into el, reading them the first time. @param {HTMLElement} el @param {ReadyCrew} c */
export function statsView(el, c) {
  /** @type {StatsUI} */
  const ui = c.ui.stats || (c.ui.stats = { member: c.me });
  if (!ui.data) {
    el.append(h('p.card.muted', ui.error || 'Reading every night…'));
    if (!ui.busy) {
      ui.busy = true;
      api.crewStats(c).then((data) => { ui.data = data; }, (err) => { ui.error = message(err); })
        .finally(() => { ui.busy = false; c.render(true); });
    }
    return;
  }
  const d = ui.data;
  const cur = c.table.currency;
  if (!d.members.some((m) => m.member === ui.member)) ui.member = (d.season[0] || d.members[0] || { member: undefined }).member;
  const m = d.members.find((x) => x.member === ui.member);
  const draw = () => { replace(el); statsView(el, c); };
  add(el, seasonCard(d, cur),
    h('section.card', { 'data-testid': 'member-figures' }, h('h2', 'A member’s record'),
      h('div.pick', d.members.map((x) => h('button.member', { type: 'button', class: x.member === ui.member ? 'on' : '', dataset: { name: x.name },
        'aria-pressed': String(x.member === ui.member), onclick: () => { ui.member = x.member; draw(); } }, x.name))),
      m && memberFigures(m, cur)),
    fairnessCard(d.dice));
}

/** @param {number} r */
const pct = (r) => `${Math.round(r * 100)}%`;

// seasonCard is the season table: best first, by net money, then wins.
/** @param {api.CrewStats} d @param {string} cur */
function seasonCard(d, cur) {
  return h('section.card', { 'data-testid': 'season' }, h('h2', 'Season table'),
    h('p.muted.small', `${d.nights} ${d.nights === 1 ? 'night' : 'nights'}, ${d.rounds} rounds`),
    h('table.season', h('thead', h('tr', ['#', 'Member', 'Nights', 'Wins', 'Net'].map((t) => h('th', t)))),
      h('tbody', d.season.map((s) => h('tr', { dataset: { name: s.name } }, h('td', String(s.rank)), h('td', s.name),
        h('td', String(s.nights)), h('td', `${s.wins} (${pct(s.winRate)})`),
        h('td', { class: s.net > 0 ? 'plus' : s.net < 0 ? 'minus' : '' }, signed(s.net, cur)))))));
}

// memberFigures is one member's lifetime record.
/** @param {MemberFigures} m @param {string} cur */
function memberFigures(m, cur) {
  /** @param {string} label @param {string} value */
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
 * @param {MemberFigures} m
 * @param {string} cur
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
  /** @param {number} i */
  const x = (i) => pad.l + (i * (W - pad.l - pad.r)) / pts.length; // i = 0 is before the first night
  /** @param {number} v */
  const y = (v) => pad.t + ((hi - v) * (H - pad.t - pad.b)) / span;
  const path = totals.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(' ');
  /** @param {string} t @param {number} ax @param {number} ay @param {string} anchor @param {string} [fill] */
  const label = (t, ax, ay, anchor, fill = '#aab4c3') => svg('text', { x: ax, y: ay, 'text-anchor': anchor, 'font-size': 12, fill }, t);
  /** @param {number} i */
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
/** @param {MemberFigures} m */
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

/** @param {string} iso */
const shortDay = (iso) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });

/** @type {Record<string, string>} */
const VERDICT = { 'too-few': 'Too few dice', fair: 'Fair', flagged: 'Flagged' };

/** fairnessCard shows every dice check the stats report holds, the table's first. @param {api.Schemas['Fairness']} f */
export function fairnessCard(f) {
  return h('section.card', { 'data-testid': 'fairness' }, h('h2', 'Are the dice fair?'),
    check(f.table, 'The table’s dice'),
    f.members.map((m) => check(m, `${m.name}’s dice`)),
    f.checked > 1 && h('p.muted.small', { 'data-testid': 'false-alarm' },
      `${f.checked} members’ dice were tested at the ${Math.round(f.level * 100)}% level: even if every die is fair, ` +
      `one of them is flagged by bad luck alone ${Math.round(f.falseAlarm * 100)}% of the time.`));
}

// check is one set of dice: verdict, the faces drawn against a fair die
// (only once there are enough throws to say anything), and the explanation.
/** @param {DiceCheck} c @param {string} title */
function check(c, title) {
  return h('div.dicecheck', { 'data-testid': 'dice-check', dataset: { verdict: c.verdict, name: c.name } },
    h('p', h('b', title), ' ', h('span.chip', { class: c.verdict }, VERDICT[c.verdict] || c.verdict)),
    c.verdict !== 'too-few' && faces(c),
    h('p.small', c.explanation));
}

// faces draws how many dice showed each face as bars, with a line where
// fair dice would put them (a sixth of the throws each).
/** @param {DiceCheck} c */
function faces(c) {
  const W = 300;
  const H = 110;
  const fair = c.throws / 6;
  const most = Math.max(fair, ...c.faces);
  const bar = (W - 20) / 6;
  /** @param {number} n */
  const y = (n) => 86 - (70 * n) / most;
  return h('div.plot', svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img',
    'aria-label': `${c.throws} dice: ${c.faces.map((n, i) => `${n} showed ${i + 1}`).join(', ')}; χ² ${c.chiSquare.toFixed(1)}, p = ${c.pValue.toFixed(3)}` },
  ...c.faces.flatMap((n, i) => [
    svg('rect', { x: 10 + i * bar + 6, y: y(n), width: bar - 12, height: 86 - y(n), rx: 3, fill: c.verdict === 'flagged' ? '#ff8a8a' : '#4cc9f0' }),
    svg('text', { x: 10 + i * bar + bar / 2, y: 104, 'text-anchor': 'middle', 'font-size': 13, fill: '#aab4c3' }, String(i + 1)),
    svg('text', { x: 10 + i * bar + bar / 2, y: y(n) - 4, 'text-anchor': 'middle', 'font-size': 11, fill: '#f4f4f4' }, String(n)),
  ]),
  svg('line', { x1: 10, x2: W - 10, y1: y(fair), y2: y(fair), stroke: '#ffd23f', 'stroke-dasharray': '5 4' })));
}
