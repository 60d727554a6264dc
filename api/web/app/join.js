// @ts-check
// join.js is the join screen (#join=CODE): a join code, typed or from a
// link, claims a seat at a table or makes this phone a member of a crew.
// The open seats show as buttons, from the link at once and from the server
// for a typed code.

import { h, replace, fieldValue, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { plainCode, isCodeLength } from './invite.js';

/**
 * JoinForm is what the join screen keeps: the code and the name typed, and
 * the write being sent (kept so a retry reuses its key).
 * @typedef {{ code: string, name: string, request?: api.Write<api.Schemas['JoinRequest'], api.Joined> | null }} JoinForm
 */

/**
 * joinScreen claims a seat with a join code (seats: the open seats' names).
 * @param {HTMLElement} main
 * @param {string | null} code
 * @param {string[]} seats
 */
export function joinScreen(main, code, seats) {
  /** @type {JoinForm} */
  const form = { code: (code || '').toUpperCase(), name: '' };
  const error = h('p.error', { hidden: true, 'data-testid': 'join-error' });
  /** @param {string} name @param {HTMLButtonElement} button */
  const join = (name, button) => claim(form, error, name, button);
  const nameInput = h('input', { type: 'text', maxlength: 40, placeholder: 'Your name', 'aria-label': 'your name',
    autocomplete: 'nickname', oninput: (e) => { form.name = fieldValue(e); } });
  // The open seats come from the link (#join=CODE&seat=Ann) at once, then
  // from the server (GET /v1/join/CODE) for a typed code or a stale link.
  const seatBox = h('div.seats', { 'data-testid': 'open-seats' });
  const otherLabel = h('h2');
  /** @param {string[]} names @param {string} table */
  const showSeats = (names, table) => {
    replace(seatBox, ...(names.length ? [table && h('p.muted', `Table: ${table}`), h('h2', 'Who are you?'),
      names.map((name) => h('button.primary.seat', { type: 'button', dataset: { name },
        onclick: (e) => join(name, /** @type {HTMLButtonElement} */ (e.currentTarget)) }, name))] : []));
    otherLabel.textContent = names.length ? 'Someone else' : 'Your name';
  };
  const lookUp = seatFinder(form, seatBox, showSeats);
  showSeats(seats, '');
  replace(main,
    h('header.top', h('div.title', h('a.home', { href: '#', 'aria-label': 'home' }, '⌂'), h('h1', 'Join a table or a crew'))),
    h('section.card',
      h('label.field', 'Join code', h('input.code', { type: 'text', value: form.code, maxlength: 32, autocapitalize: 'characters',
        placeholder: 'ABCD-EFGH-JKMN-PQ', spellcheck: 'false',
        autocomplete: 'off', 'aria-label': 'join code', oninput: (e) => { form.code = fieldValue(e).toUpperCase(); lookUp(false); },
        onchange: () => lookUp(true) })),
      seatBox,
      otherLabel,
      nameInput,
      h('button.primary', { type: 'button', 'data-testid': 'join-go',
        onclick: (e) => join(form.name, /** @type {HTMLButtonElement} */ (e.currentTarget)) }, 'Join'),
      error),
    h('section.card', h('a.button.ghost', { href: '#recover=', 'data-testid': 'to-recover' }, 'Taking over as host? Use a recovery code')));
  lookUp(true);
}

/**
 * claim joins with the code typed as name, tapped on button, and opens
 * the table (or the crew) joined; error says why not.
 * @param {JoinForm} form
 * @param {HTMLElement} error
 * @param {string} name
 * @param {HTMLButtonElement} button
 */
async function claim(form, error, name, button) {
  name = name.trim();
  if (!form.code || !name) {
    error.hidden = false;
    error.textContent = 'Type the code and your name.';
    return;
  }
  const body = { code: plainCode(form.code) || form.code.trim(), name };
  if (!form.request || JSON.stringify(form.request.body) !== JSON.stringify(body)) form.request = api.join(body);
  button.disabled = true;
  try {
    const j = await api.send(form.request);
    // A crew's code makes this phone a member: it opens the crew's page.
    const crew = j.table.kind === 'crew';
    store.save({ id: j.table.id, name: j.table.name, role: 'player', token: j.playerToken,
      playerId: j.player.id, playerName: j.player.name, code: plainCode(form.code),
      kind: crew ? 'crew' : undefined, crew: j.table.crew });
    location.hash = crew ? `#c=${j.table.id}` : `#t=${j.table.id}`;
  } catch (err) {
    error.hidden = false;
    error.textContent = message(err);
    button.disabled = false;
  }
}

/**
 * seatFinder returns lookUp(done), which asks the server for the open
 * seats of the code typed and shows them.
 *
 * seatBox.dataset.ready says the list is settled for the code typed, so
 * nothing will move under a thumb (or a test) about to tap. Every code no
 * table has counts against this phone's address, so a half-typed one is
 * never looked up, nor one code twice: a 14-character code as soon as it
 * is whole, an older table's 6-character one (the start of a new one) only
 * once typed (done: the field is left, or the code came with the link).
 * Nor are the seats drawn again for the code they show: leaving the field
 * to tap one must not move it.
 * @param {JoinForm} form
 * @param {HTMLElement} seatBox
 * @param {(names: string[], table: string) => void} showSeats
 * @returns {(done: boolean) => Promise<void>}
 */
function seatFinder(form, seatBox, showSeats) {
  /** @type {Map<string, Promise<api.Invitation | null>>} */
  const answers = new Map(); // code → the promise of its invitation; null when no table has it
  let settled = ''; // the code seatBox is settled for
  return async (done) => {
    const code = plainCode(form.code);
    if (code === settled) return;
    settled = '';
    delete seatBox.dataset.ready;
    if (!isCodeLength(code) || (code.length < 14 && !done)) return;
    if (!answers.has(code)) {
      answers.set(code, api.invitation(code).catch((err) => {
        if (!(err instanceof api.Problem) || err.status !== 404) answers.delete(code); // ask again later
        return null; // joining says what was wrong in words
      }));
    }
    const inv = await answers.get(code);
    if (plainCode(form.code) !== code) return;
    if (inv) showSeats(inv.openSeats, inv.table);
    settled = code;
    seatBox.dataset.ready = 'true';
  };
}
