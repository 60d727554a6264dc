// @ts-check
// start.js is the "start the next round" card: the ante, the declared score
// of a progressive pot, and the roll-off before a roll-off table's first round.
//
// The host's phone starts a round in one tap: the host runs the table, and
// only the host can reverse a round started by mistake. Any other phone
// asks once more, saying what starting does (everyone antes), so that a
// careless tap on a player's phone starts nothing; a player's phone can
// still start the round when the host's is away.

import { h, money, sentence, fieldValue, message } from './dom.js';
import { names } from './result.js';
import * as api from './api.js';
import { dice, pad } from './dice.js';

/** @typedef {import('./session.js').Ready} Ready */

/**
 * StartUI is the next round being started (s.ui.start): its number, the
 * declared score as typed, and the roll-off throws entered so far.
 * @typedef {import('./page.js').Card & { n: number, throws: { player: number, dice: number[] }[],
 *   roll: { dice: number[] }, player?: number, declared?: string }} StartUI
 */

/** startCard offers to start the next round. @param {Ready} s */
export function startCard(s) {
  const t = s.table;
  const rs = t.ruleset;
  /** @type {StartUI} */
  const ui = s.ui.start && s.ui.start.n === t.roundsPlayed + 1 ? s.ui.start : (s.ui.start = { n: t.roundsPlayed + 1, throws: [], roll: { dice: [] } });
  const active = t.players.filter((p) => !p.leftAt);
  const rollOff = rs.start === 'roll-off' && t.roundsPlayed === 0;
  // A player's phone asking to be sure says who antes in the question.
  const asking = s.role !== 'host' && ui.confirm;
  const card = h('section.card.start-round', h('h2', `Round ${ui.n}`), !asking && h('p', { 'data-testid': 'ante' }, anteLine(s)));
  if (rs.progressive) {
    card.append(h('label.field', 'Declared winning score', h('input', { type: 'number', inputmode: 'numeric',
      value: ui.declared ?? '', 'data-testid': 'declared', oninput: (e) => { ui.declared = fieldValue(e); } })));
  }
  if (rollOff) card.append(rollOffEntry(s, ui, active));
  const error = ui.error ? h('p.error', { role: 'alert' }, ui.error) : null;
  const what = playoff(s) ? `the playoff (round ${ui.n})` : `round ${ui.n}`;
  const blocked = ui.busy || (rollOff && ui.throws.length < active.length);
  if (s.role === 'host') {
    card.append(error || '', h('button.primary', { type: 'button', 'data-testid': 'start-round', disabled: blocked,
      onclick: () => start(s, ui, rollOff) }, ui.busy ? 'Starting…' : `Start ${what}`));
    return card;
  }
  if (!ui.confirm) {
    card.append(error || '', h('button.ghost', { type: 'button', 'data-testid': 'start-round', disabled: blocked,
      onclick: () => { ui.confirm = true; s.render(); } }, `Start ${what}…`));
    return card;
  }
  card.append(h('div.confirm', { 'data-testid': 'start-confirm' },
    h('p', `Start ${what} now, from this phone? ${anteLine(s)} Only the host can undo it.`),
    error || '',
    h('div.actions',
      h('button.primary', { type: 'button', 'data-testid': 'start-yes', disabled: blocked, onclick: () => start(s, ui, rollOff) },
        ui.busy ? 'Starting…' : `Yes, start ${what}`),
      h('button', { type: 'button', 'data-testid': 'start-no', disabled: ui.busy,
        onclick: () => { ui.confirm = false; ui.error = ''; s.render(); } }, 'Not yet'))));
  return card;
}

// anteLine says who antes what this round, as the engine will have it
// (game.Game.NextRound): a playoff is thrown by the tied players alone and
// nobody antes; a game of rounds (Scarne) makes its pot once, before the
// first round; a round after a carried pot antes again only with
// re-ante on tie (always with a progressive pot).
/** @param {Ready} s */
function anteLine(s) {
  const t = s.table;
  const g = t.game;
  const last = s.round && s.round.status === 'settled' ? s.round.result : null;
  const tied = playoff(s);
  if (tied) return `Playoff round: only ${names(s, tied)} throw; nobody antes.`;
  if (t.ruleset.ante <= 0) return 'No ante.';
  if (g && t.roundsPlayed > 0) return 'No ante: the game’s pot was made before the first round.';
  const carried = last && ['tie', 'no-qualify'].includes(last.kind);
  if (carried && !t.ruleset.reanteOnTie && !t.ruleset.progressive) return 'No ante: the pot carried over from the tie.';
  return `Everyone antes ${money(t.ruleset.ante, t.currency)}.`;
}

// playoff lists the players of the playoff the next round is, or null.
/** @param {Ready} s @returns {number[] | null} */
function playoff(s) {
  const g = s.table.game;
  const last = s.round && s.round.status === 'settled' ? s.round.result : null;
  const tied = g ? g.playoff : last && last.kind === 'playoff' ? last.playoff : null;
  return tied && tied.length ? tied : null;
}

// rollOffEntry records each player's five dice in the order thrown; players
// tied for lowest throw again, and their new throws are simply added.
/** @param {Ready} s @param {StartUI} ui @param {import('./api.js').Player[]} active */
function rollOffEntry(s, ui, active) {
  const thrown = new Set(ui.throws.map((x) => x.player));
  if (!ui.player || !active.some((p) => p.id === ui.player)) ui.player = (active.find((p) => !thrown.has(p.id)) || active[0]).id;
  const redraw = () => s.render();
  return h('div.rolloff', h('p', 'Who goes first: everyone throws all five dice; the lowest total starts.'),
    ui.throws.map((x, i) => h('div.row', h('span', s.name(x.player)), dice(x.dice),
      h('button.ghost.small', { type: 'button', onclick: () => { ui.throws.splice(i, 1); redraw(); } }, 'Remove'))),
    h('label.field', 'Thrower', h('select', { onchange: (e) => { ui.player = Number(fieldValue(e)); } },
      active.map((p) => h('option', { value: p.id, selected: p.id === ui.player }, p.name)))),
    pad({ need: 5, entry: ui.roll, onChange: redraw, sendLabel: () => 'Add this throw',
      onSend: () => { ui.throws.push({ player: /** @type {number} */ (ui.player), dice: [...ui.roll.dice] }); ui.roll.dice = []; ui.player = 0; redraw(); } }));
}

/** @param {Ready} s @param {StartUI} ui @param {boolean} rollOff */
async function start(s, ui, rollOff) {
  /** @type {api.Schemas['StartRoundRequest']} */
  const body = {};
  // A score not typed (or not a number) is left out, and the server says
  // the round needs one: JSON has no NaN, and null is no score.
  const declared = Number(ui.declared);
  if (s.table.ruleset.progressive && String(ui.declared ?? '').trim() !== '' && Number.isFinite(declared)) body.declared = declared;
  if (rollOff) body.rollOff = ui.throws;
  const want = Object.keys(body).length ? body : undefined;
  if (!ui.request || JSON.stringify(ui.request.body) !== JSON.stringify(want)) ui.request = api.startRound(s, want);
  ui.busy = true;
  ui.error = '';
  s.render();
  try {
    const round = /** @type {api.Round} */ (await api.send(ui.request)); // what startRound answers
    s.ui.start = null;
    s.ui.showTurn = true;
    s.table.currentRound = round.number;
    s.setRound(round);
  } catch (err) {
    ui.busy = false;
    ui.error = 'Not started: ' + sentence(message(err));
    // A player who cannot cover the ante at a no-overdraft table needs a
    // buy-in first, which the host records on the Money tab.
    if (err instanceof api.Problem && err.type === '/problems/insufficient-funds') ui.error += s.role === 'host' ? ' Record a buy-in on the Money tab first.' : ' Buy in with the host first.';
    if (err instanceof api.Problem) ui.request = null;
    s.render();
  }
}
