// result.js describes rounds: the result in words (who won what, what
// carried over) and every turn with its rolls, sealed ones as a covered cup.

import { h } from './dom.js';
import { dice, cup } from './dice.js';

/** resultCard says how a settled round ended and where its money went. */
export function resultCard(s, r) {
  const res = r.result;
  if (!res) return null;
  const cur = s.table.currency;
  const names = (ids) => (ids || []).map((id) => s.name(id)).join(' and ');
  const st = res.settlement;
  const paid = (st.payouts || []).map((p) => `${s.name(p.player)} gets ${p.amount} ${cur}`);
  const lines = [];
  const headline = {
    win: `${names(res.winners)} wins${res.automatic ? ' with an automatic' : ''}!`,
    split: `Split between ${names(res.winners)}.`,
    tie: 'One tie, all tie: nobody wins.',
    playoff: `Playoff: ${names(res.playoff)} play again.`,
    'no-qualify': 'Nobody put to sea.',
    refund: 'Nobody put to sea: the pot is shared out.',
    'no-winner': 'Nobody hit the declared score.',
    scored: 'Round scored.',
  }[res.kind] || res.kind;
  if (paid.length) lines.push(paid.join(', ') + '.');
  for (const p of st.perPoint || []) lines.push(`${s.name(p.from)} pays ${s.name(p.to)} ${p.amount} ${cur}.`);
  if (st.carryOver > 0) lines.push(`${st.carryOver} ${cur} carries over to the next round.`);
  if (st.remainder > 0) lines.push(`${st.remainder} ${cur} could not be split and stays in the pot.`);
  const game = r.game ? h('p.big', `Game over: ${s.name(r.game.winner)} wins the game.`) : null;
  return h('section.card.result', { 'data-testid': 'result' },
    h('h2', `Round ${r.number}`), h('p.big', headline), lines.map((l) => h('p', l)), game,
    h('ul.scores', (res.scores || []).map((p) => h('li',
      h('span', s.name(p.player)),
      h('b', p.forfeited ? 'forfeited' : p.qualified ? `${p.score}${p.automatic ? ' automatic' : ''}` : 'no score')))));
}

/** turnsCard lists the round's turns in play order with every roll. */
export function turnsCard(s, r, title = 'This round') {
  return h('section.card.turns', { 'data-testid': `turns-${r.number}` }, title && h('h2', title),
    r.turns.map((t) => turnRow(s, r, t)));
}

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
    h('div.rolls', o.rolls.map((roll) => roll.sealed ? cup() :
      h('span.roll', { class: roll.closed ? 'closed' : '', title: roll.closed ? 'thrown under the cup' : null },
        dice(roll.roll.dice || [], roll.banked || [])))));
}

// stateText says where a turn stands. An automatic is named as what it
// became: the winner, still claimable, or (unclaimed in time) a plain score.
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

/** gameCard shows a game of rounds' running totals and its goal. */
export function gameCard(s, t) {
  const g = t.game;
  const goal = t.ruleset.goal || {};
  const aim = goal.kind === 'points' ? `first to ${goal.target} points` : goal.kind === 'rounds' ? `best after ${goal.target} rounds` : '';
  const totals = [...g.totals].sort((a, b) => b.total - a.total);
  return h('section.card.game', { 'data-testid': 'game' },
    h('h2', g.over ? `Game over: ${s.name(g.winner)} wins` : `Game${aim ? `: ${aim}` : ''}`),
    g.playoff && g.playoff.length ? h('p', `Playoff: ${g.playoff.map((id) => s.name(id)).join(' and ')}.`) : null,
    h('ul.scores', totals.map((x) => h('li', h('span', s.name(x.player)), h('b', String(x.total))))));
}
