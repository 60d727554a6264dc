// @ts-check
// result.js describes rounds: the result in words (who won what, what
// carried over) and every turn with its rolls, sealed ones as a covered cup.

import { h, money, plural } from './dom.js';
import { dice, cup } from './dice.js';
import { turnSeen } from './sealed.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {import('./api.js').Round} Round */
/** @typedef {import('./api.js').Schemas['TurnView']} TurnView */

/** names lists players' names: "Ann", "Ann and Bob", "Ann, Bob and Cy". */
/** @param {{ name: (id: number) => string }} s @param {number[] | undefined} ids */
export function names(s, ids) {
  const n = (ids || []).map((id) => s.name(id));
  return n.length > 1 ? `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}` : n.join('');
}

/** resultCard says how a settled round ended and where its money went. @param {Ready} s @param {Round} r */
export function resultCard(s, r) {
  const res = r.result;
  if (!res) return null;
  const cur = s.table.currency;
  /** @param {number} n */
  const amount = (n) => money(n, cur);
  const st = res.settlement;
  const paid = (st.payouts || []).map((p) => `${s.name(p.player)} gets ${amount(p.amount)}`);
  const lines = [];
  const headline = /** @type {Record<string, string>} */ ({
    win: `${names(s, res.winners)} wins${res.automatic ? ' with an automatic' : ''}!`,
    split: `Split between ${names(s, res.winners)}.`,
    tie: 'One tie, all tie: nobody wins.',
    playoff: `Playoff: ${names(s, res.playoff)} play again.`,
    'no-qualify': 'Nobody put to sea.',
    refund: 'Nobody put to sea: the pot is shared out.',
    'no-winner': 'Nobody hit the declared score.',
    scored: 'Round scored.',
  })[res.kind] || res.kind;
  if (paid.length) lines.push(paid.join(', ') + '.');
  for (const p of st.perPoint || []) lines.push(`${s.name(p.from)} pays ${s.name(p.to)} ${amount(p.amount)}.`);
  if (st.carryOver > 0) lines.push(`${amount(st.carryOver)} ${st.carryOver === 1 ? 'carries' : 'carry'} over to the next round.`);
  if (st.remainder > 0) lines.push(`${amount(st.remainder)} could not be split and ${st.remainder === 1 ? 'stays' : 'stay'} in the pot.`);
  const game = r.game ? h('p.big', `Game over: ${s.name(r.game.winner)} wins the game.`) : null;
  return h('section.card.result', { 'data-testid': 'result' },
    h('h2', `Round ${r.number}`), h('p.big', headline), lines.map((l) => h('p', l)), game,
    latest(s, r) && tiedGame(s, 'tied-game'),
    h('ul.scores', (res.scores || []).map((p) => h('li',
      h('span', s.name(p.player)),
      h('b', p.forfeited ? 'forfeited' : p.qualified ? `${p.score}${p.automatic ? ' automatic' : ''}` : 'no score')))));
}

// latest says r is the table's last round and none is in play after it.
/** @param {Ready} s @param {Round} r */
function latest(s, r) {
  return !s.table.currentRound && r.number === s.table.roundsPlayed;
}

/**
 * tiedGame says in words that a game of rounds ended in a tie and a
 * playoff round follows (null when none does).
 * @param {Ready} s
 * @param {string} testid
 */
export function tiedGame(s, testid) {
  const g = s.table.game;
  if (!g || g.over || !(g.playoff && g.playoff.length)) return null;
  const playoff = g.playoff;
  const top = ((g.totals || []).find((x) => x.player === playoff[0]) || { total: undefined }).total;
  const during = !!s.table.currentRound;
  return h('p.tie', { 'data-testid': testid },
    `The game is tied: ${names(s, g.playoff)} ${top !== undefined ? `share the lead on ${top} points` : 'share the lead'}. `,
    during ? 'This playoff round decides it: only they throw, and its scores are not added to the totals.'
      : 'A playoff round decides it: only they throw, and its scores are not added to the totals. Start it below.');
}

/** turnsCard lists the round's turns in play order with every roll. @param {Ready} s @param {Round} r @param {string} [title] */
export function turnsCard(s, r, title = 'This round') {
  return h('section.card.turns', { 'data-testid': `turns-${r.number}` }, title && h('h2', title),
    r.turns.map((t) => turnRow(s, r, t)));
}

/** @param {Ready} s @param {Round} r @param {TurnView} t */
function turnRow(s, r, t) {
  const o = t.outcome;
  const now = r.status === 'playing' && r.turn === t.player;
  const tags = [];
  if (r.hammer === t.player) tags.push('hammer');
  if (t.revealed) tags.push('cups lifted');
  if (t.automaticWon) tags.push('automatic!');
  return h('div.turnrow', { class: now ? 'now' : '', 'data-player': t.player },
    h('div.who', h('b', s.name(t.player)), tags.length ? h('span.tag', tags.join(' · ')) : null,
      h('span.state', stateText(t, o, r.claimableAutomatic === t.player))),
    h('div.rolls', rollsHere(s, r, t).map((roll) => roll.sealed && !roll.typedHere ? cup() :
      h('span.roll', { class: roll.closed ? 'closed' : '', title: roll.closed ? 'thrown under the cup' : null },
        roll.typedHere && cup(), dice(roll.roll.dice || [], roll.banked || [])))));
}

// rollsHere are a turn's rolls as this phone may show them: a closed roll
// sealed from its token shows the dice only if this phone typed them.
/** @param {Ready} s @param {Round} r @param {TurnView} t @returns {import('./sealed.js').Seen[]} */
function rollsHere(s, r, t) {
  return t.outcome.sealed && r.status === 'playing' ? turnSeen(s.id, r.number, t.player, t.outcome).rolls : t.outcome.rolls;
}

// stateText says where a turn stands. An automatic is named as what it
// became: the winner, still claimable, or (unclaimed in time) a plain score.
/** @param {TurnView} t @param {TurnView['outcome']} o @param {boolean} claimable */
function stateText(t, o, claimable) {
  if (t.status === 'waiting') return 'waiting';
  if (t.status === 'forfeited') return 'forfeited';
  if (o.sealed) return 'under the cup';
  if (!o.over) return o.qualified ? `cargo ${o.score}` : 'throwing';
  if (!o.qualified) return 'no score';
  let auto = '';
  if (t.automaticWon) auto = ' (automatic)';
  else if (o.automatic) auto = claimable ? ' (automatic: claim it before the next throw)' : ' (automatic not claimed: a plain score)';
  return `scored ${o.score}${auto}${o.stood ? ', stood' : ''}`;
}

/** gameCard shows a game of rounds' running totals and its goal. @param {Ready} s @param {import('./api.js').Table} t */
export function gameCard(s, t) {
  const g = /** @type {NonNullable<import('./api.js').Table['game']>} */ (t.game); // drawn for a game of rounds only
  /** @type {Partial<import('./api.js').Table['ruleset']['goal']>} */
  const goal = t.ruleset.goal || {};
  const target = /** @type {number} */ (goal.target); // a goal of points or rounds has one
  const aim = goal.kind === 'points' ? `first to ${plural(target, 'point', 'points')}`
    : goal.kind === 'rounds' ? `best after ${plural(target, 'round', 'rounds')}` : '';
  const totals = [...(g.totals || [])].sort((a, b) => b.total - a.total);
  return h('section.card.game', { 'data-testid': 'game' },
    h('h2', g.over ? `Game over: ${s.name(g.winner)} wins` : `Game${aim ? `: ${aim}` : ''}`),
    s.table.currentRound && tiedGame(s, 'game-playoff'),
    h('ul.scores', totals.map((x) => h('li', h('span', s.name(x.player)), h('b', String(x.total))))));
}
