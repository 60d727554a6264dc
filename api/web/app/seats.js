// @ts-check
// seats.js changes who sits at the table between rounds: the host seats a
// latecomer (who then claims the seat from the QR code or with the code), and
// a player leaves, by the host's phone or their own, after a confirmation,
// since leaving cannot be undone. A player who left keeps their balance for
// settling up. The host may also free a seat a phone has claimed, locking
// that phone out, when someone joined as a player who was not theirs to be.

import { h, fieldValue, message } from './dom.js';
import * as api from './api.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {import('./page.js').Card} Card */
/** @typedef {api.Player} Player */

// seatsLocked says why seats cannot change right now, or '' when they can.
/** @param {api.Table} t */
function seatsLocked(t) {
  if (t.currentRound) return `Seats change between rounds: once round ${t.currentRound} is settled.`;
  const begun = t.roundsPlayed > 0;
  if (t.game && !t.game.over && begun && t.ruleset.goal && t.ruleset.goal.kind !== 'round') {
    return 'Nobody joins or leaves a game of rounds until it is won, so the totals still compare.';
  }
  return '';
}

/** seatCard is the host's form to seat a latecomer at the end of the seat order. @param {Ready} s */
export function seatCard(s) {
  const ui = s.ui.seat || (s.ui.seat = { name: '' });
  const locked = seatsLocked(s.table);
  /** @param {SubmitEvent} e */
  const submit = (e) => {
    e.preventDefault();
    seat(s, ui);
  };
  return h('form.card', { 'data-testid': 'seat-card', onsubmit: submit },
    h('h2', 'Seat a latecomer'),
    h('p.muted.small', 'They sit last in the order and play from the next round; their phone then joins with the code.'),
    h('input', { type: 'text', name: 'seat-name', maxlength: 40, placeholder: 'Their name', 'aria-label': 'latecomer name',
      autocomplete: 'off', value: ui.name, oninput: (e) => { ui.name = fieldValue(e); } }),
    locked && h('p.muted', { 'data-testid': 'seats-locked' }, locked),
    h('button.primary', { type: 'submit', 'data-testid': 'seat', disabled: ui.busy || !!locked }, ui.busy ? 'Seating…' : 'Seat them'),
    ui.done && h('p.ok', { role: 'status', 'data-testid': 'seat-done' }, ui.done),
    ui.error && h('p.error', { role: 'alert', 'data-testid': 'seat-error' }, ui.error));
}

// seat sends POST players; the key is kept across retries of the same name.
/** @param {Ready} s @param {import('./page.js').SeatCard} ui */
async function seat(s, ui) {
  const name = ui.name.trim();
  ui.done = '';
  if (!name) {
    ui.error = 'Type their name first.';
    s.render(true);
    return;
  }
  if (!ui.request || /** @type {api.Schemas['SeatRequest']} */ (ui.request.body).name !== name) ui.request = api.seat(s, name);
  ui.busy = true;
  ui.error = '';
  s.render(true);
  try {
    const p = /** @type {Player} */ (await api.send(ui.request)); // what api.seat answers
    ui.done = `${p.name} sits in seat ${p.seat}. Their phone can now scan the code above.`;
    ui.name = '';
    ui.request = null;
    s.table.players = [...s.table.players.filter((x) => x.id !== p.id), p];
  } catch (err) {
    ui.error = 'Not seated: ' + message(err);
    if (err instanceof api.Problem) ui.request = null;
  }
  ui.busy = false;
  s.render(true);
  s.refresh();
}

/** seatsCard lists the seats; the host may take anyone off, a player only themselves. @param {Ready} s @param {boolean} closed */
export function seatsCard(s, closed) {
  const ui = s.ui.leave || (s.ui.leave = {});
  const locked = seatsLocked(s.table);
  /** @param {Player} p */
  const mayLeave = (p) => !closed && !p.leftAt && (s.role === 'host' || (s.role === 'player' && s.me === p.id));
  /** @param {Player} p */
  const status = (p) => (p.leftAt ? 'left' : p.host ? 'host’s phone' : p.claimed ? 'joined' : 'open');
  // The host may free a seat a phone has claimed: the remedy when someone
  // joined as a player the host plays for. The host's own seat goes only
  // with the host role.
  const rel = s.ui.release || (s.ui.release = {});
  /** @param {Player} p */
  const mayRelease = (p) => !closed && !p.leftAt && p.claimed && !p.host && s.role === 'host';
  return h('section.card', { 'data-testid': 'seats' }, h('h2', 'Seats'),
    h('ul.scores.seatlist', s.table.players.map((p) => h('li', { class: p.leftAt ? 'left' : '', dataset: { player: p.id, name: p.name } },
      h('div.seatrow',
        h('span', `${p.seat}. ${p.name}`, s.me === p.id ? h('small.muted', ' (you)') : null),
        h('b', status(p)),
        mayLeave(p) && ui.confirm !== p.id && h('button.ghost.small', { type: 'button', 'data-testid': 'leave',
          disabled: !!locked || ui.busy, onclick: () => { Object.assign(ui, { confirm: p.id, error: '' }); s.render(true); } },
        s.me === p.id ? 'Leave' : 'Remove'),
        mayRelease(p) && rel.confirm !== p.id && h('button.ghost.small', { type: 'button', 'data-testid': 'release',
          disabled: rel.busy, onclick: () => { Object.assign(rel, { confirm: p.id, error: '' }); s.render(true); } }, 'Free seat')),
      ui.confirm === p.id && leaveConfirm(s, ui, p, locked),
      rel.confirm === p.id && releaseConfirm(s, rel, p)))),
    s.table.players.some(mayLeave) && locked && h('p.muted.small', locked),
    ui.error && h('p.error', { role: 'alert', 'data-testid': 'leave-error' }, ui.error),
    rel.error && h('p.error', { role: 'alert', 'data-testid': 'release-error' }, rel.error));
}

// releaseConfirm asks before the host locks a phone out of a seat.
/** @param {Ready} s @param {Card} rel @param {Player} p */
function releaseConfirm(s, rel, p) {
  return h('div.confirm', { 'data-testid': 'release-confirm' },
    h('p', `Free ${p.name}'s seat? The phone that joined as ${p.name} is locked out at once, and ${p.name} can join again with the code.`),
    h('div.actions',
      h('button.danger', { type: 'button', 'data-testid': 'release-yes', disabled: rel.busy,
        onclick: () => release(s, rel, p, () => { rel.confirm = 0; }) },
        rel.busy ? 'Saving…' : 'Yes, free it'),
      h('button', { type: 'button', disabled: rel.busy, onclick: () => { rel.confirm = 0; rel.request = null; s.render(true); } }, 'Cancel')));
}

/**
 * release frees player p's seat at once (POST release): the phone that took
 * it is locked out and told, and can join again with the code. st keeps the
 * request (its key is kept across retries for this seat), busy (p's id while
 * it is sent) and error; onDone runs once the seat is free, before the
 * redraw. Used by the seats card and by the host's join notices (joins.js).
 * @param {Ready} s
 * @param {Card} st
 * @param {Player} p
 * @param {(freed: Player) => void} onDone
 */
export async function release(s, st, p, onDone) {
  const next = api.release(s, p.id);
  if (!st.request || st.request.path !== next.path) st.request = next;
  st.busy = p.id;
  st.error = '';
  s.render(true);
  try {
    const freed = /** @type {Player} */ (await api.send(st.request)); // what api.release answers
    s.table.players = s.table.players.map((x) => (x.id === freed.id ? freed : x));
    st.request = null;
    onDone(freed);
  } catch (err) {
    st.error = `${p.name}’s seat is not freed: ${message(err)}`;
    if (err instanceof api.Problem) st.request = null;
  }
  st.busy = false;
  s.render(true);
  s.refresh();
}

// leaveConfirm asks once more before a player leaves for good.
/** @param {Ready} s @param {Card} ui @param {Player} p @param {string} locked */
function leaveConfirm(s, ui, p, locked) {
  const you = s.me === p.id;
  return h('div.confirm', { 'data-testid': 'leave-confirm' },
    h('p', you ? 'Leave the table? You sit out every round from now on; your balance stays for settling up.'
      : `${p.name} leaves the table: they sit out every round from now on; their balance stays for settling up.`),
    h('div.actions',
      h('button.danger', { type: 'button', 'data-testid': 'leave-yes', disabled: ui.busy || !!locked, onclick: () => leave(s, ui, p) },
        ui.busy ? 'Saving…' : you ? 'Yes, I leave' : `Yes, ${p.name} leaves`),
      h('button', { type: 'button', disabled: ui.busy, onclick: () => { ui.confirm = 0; ui.request = null; s.render(true); } }, 'Cancel')));
}

// leave sends POST leave; the key is kept across retries for this player.
/** @param {Ready} s @param {Card} ui @param {Player} p */
async function leave(s, ui, p) {
  const next = api.leave(s, p.id);
  if (!ui.request || ui.request.path !== next.path) ui.request = next;
  ui.busy = true;
  ui.error = '';
  s.render(true);
  try {
    const left = /** @type {Player} */ (await api.send(ui.request)); // what api.leave answers
    s.table.players = s.table.players.map((x) => (x.id === left.id ? left : x));
    Object.assign(ui, { confirm: 0, request: null });
  } catch (err) {
    ui.error = `${p.name} has not left: ${message(err)}`;
    if (err instanceof api.Problem) ui.request = null;
  }
  ui.busy = false;
  s.render(true);
  s.refresh();
}
