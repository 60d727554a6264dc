// fairness.js is the crew's dice fairness card: for the table's dice (all
// members' throws together) and each member's, how often each face came
// up against what fair dice would give, and the server's verdict of its
// chi-square test in plain words. Nothing is judged before enough throws;
// the card says how likely a false alarm is when many members are tested.

import { h, svg } from './dom.js';

const VERDICT = { 'too-few': 'Too few throws', fair: 'Fair', flagged: 'Flagged' };

/** fairnessCard shows every dice check the stats report holds, the table's first. */
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
function check(c, title) {
  return h('div.dicecheck', { 'data-testid': 'dice-check', dataset: { verdict: c.verdict, name: c.name } },
    h('p', h('b', title), ' ', h('span.chip', { class: c.verdict }, VERDICT[c.verdict] || c.verdict)),
    c.verdict !== 'too-few' && faces(c),
    h('p.small', c.explanation));
}

// faces draws how many dice showed each face as bars, with a line where
// fair dice would put them (a sixth of the throws each).
function faces(c) {
  const W = 300;
  const H = 110;
  const fair = c.throws / 6;
  const most = Math.max(fair, ...c.faces);
  const bar = (W - 20) / 6;
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
