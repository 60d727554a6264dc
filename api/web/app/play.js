// @ts-check
// play.js is the Play tab: whose turn it is and how many dice to throw, the
// engine's verdict, the advisor and what this phone may record (turnpad.js:
// the pad, stand / re-roll / claim / lift cups), and every turn of the round so far.

import { h, add, plural, sentence, dayClock, message } from './dom.js';
import * as api from './api.js';
import * as outbox from './outbox.js';
import { dice, cup as cupIcon } from './dice.js';
import { turnSeen, keepOnly } from './sealed.js';
import { turnsCard, resultCard, gameCard, names } from './result.js';
import { advisor } from './advisor.js';
import { startCard } from './start.js';
import { roundFixes, reversedCard } from './corrections.js';
import { entryFor, offlineControls, rerollLine, sum, controls, claimButton, liftCups } from './turnpad.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {import('./page.js').Card} Card */
/** @typedef {import('./api.js').Round} Round */
/** @typedef {api.Schemas['Next']} Next */
/** @typedef {api.Schemas['ActionRequest']} Action */

/**
 * Here is the turn as this phone may show it (turnHere): the outcome with
 * the rolls this phone typed filled in, the cargo it knows, whether the
 * cargo is under the cup for this token, and whether this phone knows it
 * all the same.
 * @typedef {{ out: Omit<api.Schemas['TurnOutcome'], 'rolls'> & { rolls: import('./sealed.js').Seen[] },
 *   cargo: number[], cup: boolean, known: boolean }} Here
 */

/** playTab renders the round in play, or the last result and a start button. @param {HTMLElement} el @param {Ready} s */
export function playTab(el, s) {
  const t = s.table;
  const r = s.round;
  // What this phone remembers of closed rolls it typed lasts the round.
  keepOnly(s.id, r && r.status === 'playing' ? r.number : 0);
  if (t.status === 'closed') {
    const when = t.closedAt ? dayClock(t.closedAt) : '';
    el.append(h('section.card', { 'data-testid': 'closed-card' }, h('h2', 'This table is closed'),
      h('p', `${when ? `Closed ${when}. ` : ''}No more rounds: the final balances and who pays whom are on the Money tab.`),
      h('a.button.primary', { href: `#t=${s.id}&tab=money` }, 'See the final balances')));
    if (t.game && t.game.totals) el.append(gameCard(s, t));
    if (r && r.result) add(el, resultCard(s, r));
    return;
  }
  const game = t.game && t.game.totals ? gameCard(s, t) : null;
  if (!r || r.status !== 'playing') {
    add(el, game);
    if (r) add(el, r.status === 'reversed' ? reversedCard(s, r) : resultCard(s, r));
    if (!(t.game && t.game.over) && s.role !== 'audit') el.append(startCard(s));
    if (s.role === 'host') el.append(endNight(s));
    if (r) add(el, turnsCard(s, r, `Round ${r.number}: every throw`), roundFixes(s, r));
    return;
  }
  // The turn comes first, where the thumb is; a game's totals after it.
  const card = turnCard(s, r);
  add(el, card, game, turnsCard(s, r), roundFixes(s, r));
  if (s.ui.showTurn) {
    s.ui.showTurn = false;
    showTurn(card);
  }
}

// showTurn scrolls the turn card up under the header when it is not in
// full view once drawn. It runs after this phone's own write only (set
// s.ui.showTurn): the thumb that tapped far down the page, where the new
// turn would be out of sight, is the one that will tap next; a live update
// never moves the page under someone reading further down. It scrolls at
// once, while drawing, so the page never shows the button where it was.
/** @param {HTMLElement} card */
function showTurn(card) {
  if (!card.isConnected) return;
  const top = document.querySelector('header.top')?.getBoundingClientRect().bottom ?? 0;
  const bottom = document.querySelector('nav.tabs')?.getBoundingClientRect().top ?? innerHeight;
  const r = card.getBoundingClientRect();
  if (r.top < top || r.bottom > bottom) window.scrollBy(0, r.top - top - 8);
}

// endNight takes the host to the Money tab's close confirmation: closing
// happens there, next to the balances it settles.
/** @param {Ready} s */
function endNight(s) {
  return h('section.card', h('a.button.ghost', { href: `#t=${s.id}&tab=money`, 'data-testid': 'end-night',
    onclick: () => { s.ui.close = { confirm: true, scroll: true }; } }, 'Done for the night? Close the table…'));
}

// turnCard is the top of the Play tab: the turn in play, as what to know
// (whose turn, the verdict, what next, a refusal, the odds) and what to tap
// (the pad or the choices), which a phone on its side shows side by side.
/** @param {Ready} s @param {Round} r */
function turnCard(s, r) {
  const who = r.turn;
  const turn = r.turns.find((x) => x.player === who);
  const e = entryFor(s, r);
  const mine = s.mayRecordFor(who);
  const t = turnHere(s, r, turn, mine);
  /** @type {Partial<Next>} */
  const next = r.next || {};
  const queued = outbox.waiting(s.id).filter((w) => w.path === api.roundActions(s, r.number));
  // A stand waiting to be sent ends the turn on this phone: nothing more
  // may be recorded for it, and whose turn comes next is the engine's to
  // say once it has the stand.
  const stood = queued.some((w) => {
    const a = /** @type {api.Schemas['ActionRequest'] | undefined} */ (w.body); // written to the round's actions
    return a && a.kind === 'stand' && a.player === who;
  });
  const you = !!s.me && s.me === who;
  const title = stood ? `${you ? 'You' : s.name(who)} stood` : you ? 'Your turn' : `${s.name(who)}’s turn`;
  const info = h('div.turninfo',
    h('h2', { 'data-testid': 'whose-turn' }, title),
    r.declared !== undefined && h('p.declared', { 'data-testid': 'declared-score' },
      `Declared score: ${r.declared}${r.declarer ? ` (by ${s.name(r.declarer)})` : ''}`),
    r.playoff && h('p.declared', { 'data-testid': 'playoff-round' }, playoffLine(s)),
    // Once re-rolling, the last throw is history: the cargo is what counts.
    !e.rerolling && verdict(t, 'last'), verdict(t, 'holding'),
    h('p.next', { 'data-testid': 'next' }, queued.length ? waitingLine(you ? 'You' : s.name(who), queued, stood)
      : mine && e.rerolling ? rerollLine(s, t, next) : nextLine(s, who, next, mine)));
  if (e.error) info.append(refusal(e.error));
  // The advice comes just before the buttons: it is read before deciding,
  // so it shows while there is a choice to make. The odds API knows no
  // declared score, so a progressive pot gets no advice; nor does cargo
  // under a cup this phone did not see. A closed automatic this phone may
  // claim is not priced as a stand: claiming it wins the pot now.
  const choice = (next.mayStand || next.mayReroll) && !e.rerolling;
  const claim = claimButton(s, r);
  const advice = mine && !queued.length && choice && (r.claimableAutomatic === who && claim ? claimAdvice()
    : !s.table.ruleset.progressive && t.known && advisor(s, r, t.out, t.cargo, t.cup));
  return h('section.card.turn', { 'data-testid': 'turn' }, info,
    add(h('div.turncontrols'), advice, claim, mine && !stood && (queued.length ? offlineControls(s, r, e) : controls(s, r, e, t, next)),
      !stood && liftCups(s, r)));
}

// claimAdvice stands for the odds while the turn's player may claim a
// closed automatic: nothing beats it. One short line, so that the claim
// and Stand still fit a small phone's screen above the tab bar.
function claimAdvice() {
  return h('p.advisor', { 'data-testid': 'advisor' }, h('span.muted', 'Odds: '), h('b', 'claim the automatic: it wins the pot now.'));
}

// refusal says why this phone's last entry was not recorded. Another
// phone having recorded it first is no error: the server's words say what
// it recorded and whose phone did, and the turn has moved on.
/** @param {unknown} err */
function refusal(err) {
  if (api.recordedSince(err)) return h('p.already', { role: 'status', 'data-testid': 'already' }, sentence(message(err)));
  return h('p.error', { role: 'alert', 'data-testid': 'reason' }, 'Not recorded: ' + message(err));
}

// waitingLine replaces the engine's next step while this round's writes
// wait to be sent: the phone cannot know it until the server has them. A
// stand among them ends the turn here: the next one waits for Tally.
/** @param {string} name @param {outbox.Entry[]} queued @param {boolean} stood */
function waitingLine(name, queued, stood) {
  const n = `${queued.length} waiting to send`;
  if (stood) return `${name}: turn over. ${n}; whose turn is next shows as soon as Tally has ${queued.length === 1 ? 'it' : 'them'}.`;
  return `${n}. Enter the next throw if there is one: Tally checks each throw when it gets it.`;
}

// playoffLine says who throws in a playoff round, and why.
/** @param {Ready} s */
function playoffLine(s) {
  const g = s.table.game;
  return g && g.playoff && g.playoff.length ? `Playoff to decide the tied game: only ${names(s, g.playoff)} throw.`
    : 'Playoff round: only the tied players throw.';
}

/**
 * turnHere is the turn as this phone may show it: the server's view, with
 * any closed roll sealed from this token filled in from what this phone
 * typed itself (sealed.js). cup says the cargo is under the cup for this
 * token; known says this phone knows the cargo all the same.
 * @param {Ready} s
 * @param {Round} r
 * @param {api.Schemas['TurnView'] | undefined} turn
 * @param {boolean} mine
 * @returns {Here}
 */
function turnHere(s, r, turn, mine) {
  /** @type {Here['out']} */
  const raw = turn ? turn.outcome : { rolls: [], banked: [], qualified: false, score: 0, over: false };
  if (!raw.sealed) {
    const cargo = raw.cargo && raw.cargo.length ? raw.cargo : mine && raw.qualified ? (r.next || {}).rerollable || [] : [];
    return { out: raw, cargo, cup: false, known: true };
  }
  const seen = turnSeen(s.id, r.number, r.turn || 0, raw);
  return { out: { ...raw, rolls: seen.rolls }, cargo: seen.cargo || [], cup: true, known: !!seen.cargo };
}

// verdict says what the engine made of the turn so far: the last throw
// (part 'last') or what the turn holds (part 'holding'). A re-roll's dice
// are the cargo the holding line shows, so it gets no line of its own,
// only a word on who can see it when it is under the cup.
/** @param {Here} t @param {'last' | 'holding'} part */
function verdict({ out, cargo, cup, known }, part) {
  const last = out.rolls[out.rolls.length - 1];
  if (part === 'last') {
    if (!last) return null;
    if (last.sealed && !last.typedHere) return h('p.verdict', 'Last throw ', cupIcon(), ' is under the cup.');
    if (last.typedHere && last.cargoReroll) return h('p.undercup', { 'data-testid': 'verdict' }, 'Re-rolled under the cup: only this phone sees it.');
    if (last.cargoReroll) return null;
    const b = last.banked || [];
    return h('p.verdict', { 'data-testid': 'verdict' }, 'Last throw ', dice(last.roll.dice || [], b),
      b.length ? ` banked ${b.join('-')}` : ' banked nothing', last.typedHere && h('span.undercup', ' — under the cup'));
  }
  if (!out.banked || !out.banked.length) return null;
  return h('p.holding', { 'data-testid': 'holding' }, 'Holding ', dice(out.banked, out.banked), out.qualified && cargo.length ?
    h('span', ' cargo ', dice(cargo), ` = ${sum(cargo)}`) : null, out.qualified && cup && !known && ' cargo under the cup');
}

/** @param {Ready} s @param {number | undefined} who @param {Partial<Next>} next @param {boolean} mine */
function nextLine(s, who, next, mine) {
  const name = s.me && s.me === who ? 'You' : s.name(who);
  if (next.over) return `${name}: turn over.`;
  if (next.throw && next.throw > 0) return `${mine ? 'Throw' : `Waiting for ${name} to throw`} ${plural(next.throw, 'die', 'dice')} (roll ${next.roll} of ${Number(next.roll) + Number(next.rollsLeft) - 1}).`;
  if (next.mayReroll) return `${mine ? 'Stand or re-roll' : `${name} may stand or re-roll`} (${plural(Number(next.rollsLeft), 'roll', 'rolls')} left).`;
  if (next.mayStand) return mine ? 'Stand to end the turn.' : `Waiting for ${name} to stand.`;
  return '';
}
