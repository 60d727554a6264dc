// @ts-check
// turnpad.js is what the phone that records a turn taps on the Play tab
// (play.js): the throw being entered, the pad and the choices (stand,
// re-roll, claim the automatic, lift the cups), and sending each action
// through the outbox.

import { h, plural } from './dom.js';
import * as api from './api.js';
import * as outbox from './outbox.js';
import { dice, pad } from './dice.js';
import { rememberTyped } from './sealed.js';
import { names } from './result.js';
import { cameraTool } from './camera.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {import('./api.js').Round} Round */
/** @typedef {api.Schemas['Next']} Next */
/** @typedef {api.Schemas['ActionRequest']} Action */
/** @typedef {import('./play.js').Here} Here */

/**
 * DiceEntry is the throw being entered (s.ui.entry), for the state of the
 * round named by key: the faces tapped, the cargo picked up for a re-roll,
 * the write being sent (kept so a retry reuses its key) and the refusal to
 * show (carried: from the move before).
 * @typedef {object} DiceEntry
 * @property {string} key
 * @property {number[]} dice
 * @property {number[]} pick the faces picked up
 * @property {number[]} [pickIdx] which cargo dice they are
 * @property {boolean} rerolling
 * @property {unknown} error
 * @property {boolean} carried
 * @property {boolean} [busy]
 * @property {'6-5-4' | '1-2-3'} [path] the way a throw with both a 6 and a 1 goes
 * @property {import('./api.js').Write<Action, Round> | null} [pending]
 */

// entryFor keeps what this phone is entering for the current throw; it is
// dropped as soon as the round moves on (here or on another phone). A
// refusal outlives the one move that follows it: a phone refused because
// another phone recorded the throw first catches up and still says why.
/** @param {Ready} s @param {Round} r @returns {DiceEntry} */
export function entryFor(s, r) {
  const turn = r.turns.find((x) => x.player === r.turn);
  const key = `${r.number}/${r.turn}/${r.next ? r.next.roll : 0}/${turn ? turn.outcome.rolls.length : 0}`;
  const old = s.ui.entry;
  if (!old || old.key !== key) {
    const carried = old && old.error instanceof api.Problem && !old.carried ? old.error : null;
    s.ui.entry = { key, dice: [], pick: [], rerolling: false, error: carried, carried: !!carried };
  }
  return /** @type {DiceEntry} */ (s.ui.entry); // set just above
}

// offlineControls are what this phone may record while its writes wait:
// another throw (up to five dice, the engine judges when it gets it) or a
// stand.
/** @param {Ready} s @param {Round} r @param {DiceEntry} e */
export function offlineControls(s, r, e) {
  return h('div.reroll', pad({ need: 0, entry: e, onChange: () => s.render(), busy: e.busy, sendLabel: recordLabel,
    onSend: () => send(s, r, e, { player: r.turn, kind: 'roll', dice: [...e.dice] }) }),
  h('button.ghost', { type: 'button', disabled: e.busy, 'data-testid': 'stand',
    onclick: () => send(s, r, e, { player: r.turn, kind: 'stand' }) }, 'Stand'));
}

// rerollPlan is what a re-roll may pick up: the cargo faces this phone
// knows (faces), whether all of it is thrown again (whole) and how many
// dice that is (count). Cargo under the cup is thrown again whole: only
// the player's own phone may name the dice picked up (the server refuses
// anyone else).
/** @param {Ready} s @param {Here} t @param {Partial<Next>} next */
function rerollPlan(s, t, next) {
  const faces = t.cup ? t.cargo : next.rerollable || [];
  const whole = !!next.rerollAll || t.cup || faces.length === 1;
  return { faces, whole, count: t.known ? t.cargo.length : s.table.ruleset.cargoDice };
}

// rerollLine says what a re-roll throws; the pad says what to tap.
/** @param {Ready} s @param {Here} t @param {Partial<Next>} next */
export function rerollLine(s, t, next) {
  const { whole, count } = rerollPlan(s, t, next);
  if (!whole) return 'Pick up the cargo dice to re-roll.';
  return `Re-rolling ${count === 2 ? 'both cargo dice' : count === 1 ? 'the cargo die' : `all ${count} cargo dice`}.`;
}

/** @param {number[]} faces */
export function sum(faces) {
  return faces.reduce((a, b) => a + b, 0);
}

// controls are the buttons of the phone that records this turn.
/** @param {Ready} s @param {Round} r @param {DiceEntry} e @param {Here} t @param {Partial<Next>} next */
export function controls(s, r, e, t, next) {
  const redraw = () => s.render();
  const badDie = e.error instanceof api.Problem && e.error.roll === next.roll ? e.error.die : 0;
  const { out, cargo, cup, known } = t;
  if (next.throw && next.throw > 0) {
    const both = (s.table.ruleset.sequences || []).length > 1 && !(out.banked || []).length &&
      e.dice.includes(6) && e.dice.includes(1);
    const extra = both ? { blocked: !e.path, node: h('div.choice', h('p', 'Both a 6 and a 1: which way?'),
      /** @type {const} */ (['6-5-4', '1-2-3']).map((p) => h('button', { type: 'button', class: e.path === p ? 'on' : '',
        onclick: () => { e.path = p; redraw(); } }, p))) } : null;
    return pad({ need: next.throw, entry: e, onChange: redraw, busy: e.busy, bad: badDie, extra,
      sendLabel: recordLabel, tool: cameraTool({ need: next.throw, entry: e, onChange: redraw, busy: e.busy }),
      onSend: () => send(s, r, e, { player: r.turn, kind: 'roll', dice: [...e.dice], ...(both ? { path: e.path } : {}) },
        { roll: /** @type {number} */ (next.roll) }) }); // a throw is asked for: next is there
  }
  if (!next.mayStand && !next.mayReroll) return null;
  const { faces, whole, count } = rerollPlan(s, t, next);
  if (!e.rerolling) {
    const stand = known ? `Stand on ${sum(cargo)}${cup ? ' — under the cup' : ''}` : 'Stand (under the cup)';
    return h('div.actions',
      next.mayStand && h('button.primary', { type: 'button', disabled: e.busy, 'data-testid': 'stand',
        onclick: () => send(s, r, e, { player: r.turn, kind: 'stand' }) }, stand),
      next.mayReroll && h('button.primary.alt', { type: 'button', disabled: e.busy, 'data-testid': 'reroll',
        onclick: () => {
          e.rerolling = true;
          e.pickIdx = whole ? faces.map((_, i) => i) : [];
          e.pick = e.pickIdx.map((i) => faces[i]);
          redraw();
        } },
        whole ? (count === 2 ? 'Re-roll both' : 'Re-roll the cargo') : 'Re-roll…'));
  }
  const rethrow = whole ? (cup ? [] : faces) : e.pick;
  const need = whole ? count : e.pick.length;
  const back = h('button.ghost.back', { type: 'button', 'data-testid': 'back',
    onclick: () => { e.rerolling = false; e.dice = []; e.pick = []; e.pickIdx = []; redraw(); } }, 'Back');
  const picker = !whole && h('div.tray.picker', { role: 'group', 'aria-label': 'the cargo: tap the dice you pick up' },
    faces.map((f, i) => h('button.traydie', {
      type: 'button', class: e.pickIdx && e.pickIdx.includes(i) ? 'on' : '', 'aria-label': `pick up ${f}`,
      onclick: () => { togglePick(e, faces, i); redraw(); },
    }, dice([f], [], 'md'))));
  return h('div.reroll', picker,
    need > 0 ? pad({ need, entry: e, onChange: redraw, busy: e.busy, bad: badDie, aside: back,
      sendLabel: recordLabel, tool: cameraTool({ need, entry: e, onChange: redraw, busy: e.busy }),
      onSend: () => send(s, r, e, { player: r.turn, kind: 'roll', dice: [...e.dice], ...(rethrow.length ? { rethrow: [...rethrow] } : {}) },
        { roll: /** @type {number} */ (next.roll), before: known ? cargo : null }) }) : back); // a re-roll is offered: next is there
}

// recordLabel names the send button of a whole throw.
/** @param {number} n */
function recordLabel(n) {
  return `Record ${plural(n, 'die', 'dice')}`;
}

// togglePick picks up or puts down cargo die i; pick holds the faces.
/** @param {DiceEntry} e @param {number[]} faces @param {number} i */
function togglePick(e, faces, i) {
  e.pickIdx = e.pickIdx || [];
  const at = e.pickIdx.indexOf(i);
  if (at >= 0) e.pickIdx.splice(at, 1);
  else e.pickIdx.push(i);
  e.pick = e.pickIdx.map((j) => faces[j]);
  e.dice = e.dice.slice(0, e.pick.length);
}

// claimButton claims a closed automatic in time, on the phone the server
// says may: the player's own, or the host's that recorded the throw (for a
// player without a phone). It comes first: nothing beats it, and it lasts
// only until the next player's first throw.
/** @param {Ready} s @param {Round} r */
export function claimButton(s, r) {
  const a = r.claimableAutomatic;
  if (!a || !s.mayRecordFor(a)) return null;
  return h('button.primary.gold', { type: 'button', 'data-testid': 'claim',
    onclick: () => send(s, r, entryFor(s, r), { player: a, kind: 'claim-automatic' }) },
  `Claim the automatic${a !== s.me ? ` for ${s.name(a)}` : ''}`);
}

// liftCups is the call of a player who completed the sequence within two
// rolls: the earlier closed rollers lift their cups for everyone to see,
// before the player decides. It says so, and stands apart from Stand, so
// that neither is tapped for the other.
/** @param {Ready} s @param {Round} r */
export function liftCups(s, r) {
  if (!r.mayLiftCups || !s.mayRecordFor(r.turn)) return null;
  const at = r.turns.findIndex((t) => t.player === r.turn);
  const cups = r.turns.slice(0, at).filter((t) => t.outcome.closed && !t.revealed).map((t) => t.player);
  const you = s.me === r.turn;
  return h('div.lift', { 'data-testid': 'lift-card' },
    h('p', { 'data-testid': 'lift-why' }, `${you ? 'You' : s.name(r.turn)} may call ${cups.length ? names(s, cups) : 'the earlier closed rollers'} ` +
      `to lift ${cups.length === 1 ? 'the cup: what is under it is' : 'their cups: what is under them is'} shown to everyone ` +
      `before ${you ? 'you decide' : `${s.name(r.turn)} decides`} to stand or roll again.`),
    h('button.primary.gold', { type: 'button', 'data-testid': 'lift',
      onclick: () => send(s, r, entryFor(s, r), { player: r.turn, kind: 'lift-cups' }) }, 'Lift the cups!'));
}

// send records one action through the outbox. The key is made once per
// intended action and kept while the network is down, so retries cannot
// record it twice; a refusal drops it, since a corrected entry is a new
// intention. The action says which state of the round it was entered
// against (api.seen: the round this pad was drawn from, and this phone's
// own actions waiting before it), so that a throw another phone recorded
// meanwhile is not recorded twice: that refusal is shown as news, and the
// pad moves on. An action that cannot be sent now waits in the outbox,
// and the pad is free for the next one. A throw the answer shows sealed
// from this token is remembered on this phone (memo: the roll's number
// and, for a re-roll, the cargo before it).
/**
 * @param {Ready} s @param {Round} r @param {DiceEntry} e
 * @param {Action} action @param {import('./sealed.js').Memo} [memo]
 */
async function send(s, r, e, action, memo) {
  const path = api.roundActions(s, r.number);
  const body = { ...action, ...api.seen(r, outbox.waiting(s.id).filter((w) => w.path === path).length) };
  if (!e.pending || JSON.stringify(e.pending.body) !== JSON.stringify(body)) e.pending = api.act(s, r.number, body);
  e.busy = true;
  e.error = null;
  s.render();
  try {
    const round = await outbox.submit(s.id, e.pending, describe(s, body));
    if (memo) rememberTyped(s.id, round, body, memo);
    s.ui.entry = null;
    s.ui.showTurn = true;
    s.setRound(round);
  } catch (err) {
    if (err instanceof outbox.Queued) {
      s.ui.entry = null;
      s.render();
      return;
    }
    e.busy = false;
    e.error = err;
    e.carried = false;
    if (api.recordedSince(err)) {
      // The throw is recorded: the pad moves on. If this phone heard of it
      // live before the answer came, the entry on screen is already the
      // next one, and says it there, once.
      Object.assign(e, { dice: [], pick: [], pickIdx: [], rerolling: false });
      if (s.ui.entry && s.ui.entry !== e) Object.assign(s.ui.entry, { error: err, carried: true });
    }
    s.render();
    // A refusal may mean this phone missed a throw another phone recorded:
    // it reads the round again to show where the turn really stands.
    if (err instanceof api.Problem) {
      e.pending = null;
      s.refresh();
    }
  }
}

// describe names an action in plain words, for the outbox on screen.
/** @param {Ready} s @param {Action} body */
function describe(s, body) {
  const who = s.name(body.player);
  if (body.kind === 'roll') return `${who}: ${body.rethrow ? 're-roll' : 'throw'} ${(body.dice || []).join(' ')}`;
  if (body.kind === 'stand') return `${who}: stand`;
  if (body.kind === 'claim-automatic') return `${who}: claim the automatic`;
  return `${who}: lift the cups`;
}
