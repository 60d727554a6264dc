// @ts-check
// home.js holds the screens before a table is open: the saved tables and
// crews, and starting a table (joining one is join.js).

import { h, replace, fieldValue, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { diceOptions, diceRequest } from './diceform.js';
import { crewsCard } from './crewstart.js';

/** @typedef {api.Schemas['CreateTableRequest']} CreateTableRequest */

/**
 * RoyaleForm is a Battleship Royale table's options as typed.
 * @typedef {{ mode: 'standard' | 'advanced', fleet: 'dealt' | 'entered', die: 'real' | 'tally', ante: number | string,
 *   bounty: number | string }} RoyaleForm
 */

/**
 * StartForm is the start form's state: the dice options (DiceForm), the
 * game, the row of the host's own name (-1: the host does not play), a
 * Battleship Royale table's options, and the write being sent.
 * @typedef {import('./diceform.js').DiceForm & { names: string[], game: string, host: number, royale?: RoyaleForm,
 *   request?: api.Write<CreateTableRequest, api.CreatedTable> | null }} StartForm
 */

/** homeScreen lists this phone's tables and offers to start or join one. @param {HTMLElement} main */
export function homeScreen(main) {
  const saved = store.tables().filter((t) => t.kind !== 'crew');
  const crews = store.crews();
  replace(main,
    h('header.top', h('div.title', h('h1', 'Tally'), h('span.role', 'Ship, Captain and Crew'))),
    h('section.card',
      h('a.button.primary', { href: '#new', 'data-testid': 'start' }, 'Start a table'),
      h('a.button', { href: '#join=', 'data-testid': 'join' }, 'Join with a code')),
    crewsCard(crews),
    saved.length > 0 && h('section.card', h('h2', 'Your tables'),
      saved.map((t) => h('a.button.row', { href: `#t=${t.id}` },
        h('span', t.name || `Table ${t.id}`),
        h('span.muted', (t.role === 'host' ? 'host' : t.role === 'player' ? `as ${t.playerName || 'player'}` : 'read only') +
          (t.closed ? ' · closed' : ''))))));
}

/** startScreen is the form that makes a table, under its heading. @param {HTMLElement} main */
export async function startScreen(main) {
  const top = () => h('header.top', h('div.title', h('a.home', { href: '#', 'aria-label': 'home' }, '⌂'), h('h1', 'Start a table')));
  replace(main, top(), h('p.card', 'Loading the rules…'));
  let presets;
  try {
    presets = await api.presets();
  } catch (err) {
    replace(main, top(), h('section.card', h('p.error', message(err)), h('a.button', { href: '#' }, 'Home')));
    return;
  }
  // host is the row of the host's own name (this phone plays it), -1 when
  // the host does not play: the first row unless told otherwise.
  /** @type {StartForm} */
  const form = { preset: presets[0].name, names: ['', ''], game: 'dice', host: 0 };
  const draw = () => replace(main, top(), form.game === 'royale' ? royaleForm(form, draw) : startForm(presets, form, draw));
  draw();
}

// startForm draws the table form; form holds what was typed across redraws.
// A preset is shown by its title; picking one starts from its defaults.
/** @param {api.Preset[]} presets @param {StartForm} form @param {() => void} draw */
function startForm(presets, form, draw) {
  const rs = /** @type {api.Preset} */ (presets.find((p) => p.name === form.preset)).ruleset; // form.preset is one of them
  const error = h('p.error', { hidden: true, 'data-testid': 'start-error' });
  /** @param {SubmitEvent} e */
  const submit = (e) => makeTable(e, form, diceRequest(rs, form), error);
  return h('form.card.start', { onsubmit: submit },
    gamePicker(form, draw),
    h('fieldset', h('legend', 'Game'), presets.map((p) => h('label.preset', { class: p.name === form.preset ? 'on' : '' },
      h('input', { type: 'radio', name: 'preset', value: p.name, checked: p.name === form.preset,
        onchange: () => { startFrom(form, p.name); draw(); } }),
      h('span', h('b', p.title || p.name), h('small', p.description))))),
    diceOptions(rs, form, draw),
    formEnd(form, draw, error, 'Players in seat order', 16));
}

// startFrom picks a preset: its defaults replace every rule changed so far,
// and what is not a rule (unit, names, the table's name) stays.
/** @param {StartForm} form @param {string} preset */
function startFrom(form, preset) {
  const keep = { game: form.game, names: form.names, host: form.host, currency: form.currency, name: form.name,
    noOverdraft: form.noOverdraft, more: form.more, royale: form.royale };
  const all = /** @type {Record<string, unknown>} */ (form);
  for (const k of Object.keys(all)) delete all[k];
  Object.assign(form, keep, { preset });
}

// makeTable sends POST /v1/tables from a start form (the same key on every
// retry of the same body), keeps the host's tokens on this phone and opens
// the table's invite tab; a refusal shows under the form.
/** @param {SubmitEvent} e @param {StartForm} form @param {CreateTableRequest} body @param {HTMLElement} error */
async function makeTable(e, form, body, error) {
  const submitter = /** @type {HTMLButtonElement} */ (e.submitter);
  e.preventDefault();
  if (form.host >= 0) {
    const host = (form.names[form.host] || '').trim();
    if (!host) {
      error.hidden = false;
      error.textContent = 'Type your own name in the row marked “me”, or tick “I’m not playing”.';
      return;
    }
    body.host = host;
  }
  if (!form.request || JSON.stringify(form.request.body) !== JSON.stringify(body)) form.request = api.createTable(body);
  submitter.disabled = true;
  try {
    const made = await api.send(form.request);
    const seat = made.table.players.find((p) => p.host);
    store.save({ id: made.table.id, name: made.table.name, role: 'host', token: made.hostToken,
      auditToken: made.auditToken, code: made.joinCode, ...(seat ? { playerName: seat.name } : {}) });
    location.hash = `#t=${made.table.id}&tab=invite`;
  } catch (err) {
    error.hidden = false;
    error.textContent = message(err);
    submitter.disabled = false;
  }
}

// gamePicker chooses between the dice games and Battleship Royale.
/** @param {StartForm} form @param {() => void} draw */
function gamePicker(form, draw) {
  /** @param {string} value @param {string} label @param {string} note */
  const choice = (value, label, note) => h('label.preset', { class: form.game === value ? 'on' : '' },
    h('input', { type: 'radio', name: 'game', value, checked: form.game === value, 'data-testid': `game-${value}`,
      onchange: () => { form.game = value; form.request = null; draw(); } }),
    h('span', h('b', label), h('small', note)));
  return h('fieldset', h('legend', 'What are you playing?'),
    choice('dice', 'Dice games', 'Ship, Captain and Crew and its cousins'),
    choice('royale', 'Battleship Royale', 'Sealed fleets on one shared grid, the die sets the shots'));
}

// royaleForm is the start form of a Battleship Royale table: every option
// the API has, in plain words.
/** @param {StartForm} form @param {() => void} draw */
function royaleForm(form, draw) {
  const r = form.royale || (form.royale = { mode: 'standard', fleet: 'dealt', die: 'real', ante: 0, bounty: 0 });
  /** @param {'mode' | 'fleet' | 'die'} key @param {string} value @param {string} label @param {string} [note] */
  const radio = (key, value, label, note) => h('label.preset', { class: r[key] === value ? 'on' : '' },
    h('input', { type: 'radio', name: key, value, checked: r[key] === value, 'data-testid': `royale-${key}-${value}`,
      onchange: () => { /** @type {Record<string, unknown>} */ (r)[key] = value; draw(); } }),
    h('span', h('b', label), note ? h('small', note) : null));
  const error = h('p.error', { hidden: true, 'data-testid': 'start-error' });
  /** @param {SubmitEvent} e */
  const submit = (e) => {
    /** @type {CreateTableRequest} */
    const body = { game: 'royale', royale: { mode: r.mode, fleet: r.fleet, die: r.die, ante: Number(r.ante) || 0, bounty: Number(r.bounty) || 0 },
      players: form.names.map((n) => n.trim()).filter(Boolean) };
    if (form.currency && form.currency.trim()) body.currency = form.currency.trim();
    if (form.name && form.name.trim()) body.name = form.name.trim();
    return makeTable(e, form, body, error);
  };
  return h('form.card.start', { onsubmit: submit },
    gamePicker(form, draw),
    h('fieldset', h('legend', 'Mode'),
      radio('mode', 'standard', 'Standard', 'Roll, then call shots one at a time; each sunk card gives one bonus shot'),
      radio('mode', 'advanced', 'Advanced', 'Sonar, all the die’s shots as one volley, bonus numbers on the cards, a submarine each')),
    h('fieldset', h('legend', 'Fleets'),
      radio('fleet', 'dealt', 'Tally deals the cards', 'Each phone gets a hand and discards two'),
      radio('fleet', 'entered', 'We have the box', 'Each player types the cards they hold')),
    h('fieldset', h('legend', 'The die'),
      radio('die', 'real', 'We roll the real die', 'Tap what it shows: 1, 2 or 3'),
      radio('die', 'tally', 'Tally rolls it', 'For a table without the box')),
    h('fieldset', h('legend', 'Money'),
      h('div.pair',
        h('label.field', 'Ante each game', h('input', { type: 'number', inputmode: 'numeric', min: 0, name: 'ante', 'data-testid': 'royale-ante',
          value: r.ante, oninput: (e) => { r.ante = fieldValue(e); } })),
        h('label.field', 'Unit', h('input', { type: 'text', name: 'currency', maxlength: 24, placeholder: 'units',
          value: form.currency || '', oninput: (e) => { form.currency = fieldValue(e); } }))),
      h('label.field', 'Bounty: the owner of each sunk card pays its shooter (0 for none)', h('input', { type: 'number',
        inputmode: 'numeric', min: 0, name: 'bounty', 'data-testid': 'royale-bounty', value: r.bounty, oninput: (e) => { r.bounty = fieldValue(e); } }))),
    formEnd(form, draw, error, 'Players in seat order (2 to 6 play each game)', 6));
}

// formEnd is the end of both start forms: the players in seat order (at
// most max), which of them this phone's holder is (the host plays that seat
// from this phone; no phone can join as it), the table's name, the error
// line and the buttons.
/** @param {StartForm} form @param {() => void} draw @param {HTMLElement} error @param {string} legend @param {number} max */
function formEnd(form, draw, error, legend, max) {
  /** @param {number} i */
  const me = (i) => h('label.me', { class: form.host === i ? 'on' : '' },
    h('input', { type: 'radio', name: 'host', value: String(i), checked: form.host === i, 'data-testid': `host-${i}`,
      onchange: () => { form.host = i; form.request = null; draw(); } }), 'me');
  return [
    h('fieldset', h('legend', legend),
      h('p.muted.small', 'Mark your own name “me”: this phone plays for you, and no other phone can take your seat.'),
      form.names.map((n, i) => h('div.namerow',
        h('input.name', { type: 'text', maxlength: 40, value: n, 'aria-label': `player ${i + 1}`,
          placeholder: i === form.host ? 'Your name' : `Player ${i + 1}`, autocomplete: 'off',
          oninput: (e) => { form.names[i] = fieldValue(e); } }),
        me(i))),
      form.names.length < max && h('button.ghost', { type: 'button', 'data-testid': 'add-player',
        onclick: () => { form.names.push(''); draw(); } }, '+ Add a player'),
      h('label.toggle', h('input', { type: 'checkbox', name: 'not-playing', checked: form.host < 0, 'data-testid': 'host-none',
        onchange: (e) => { form.host = /** @type {HTMLInputElement} */ (e.target).checked ? -1 : 0; form.request = null; draw(); } }),
      h('span', 'I’m not playing', h('small', 'This phone only keeps the books and records for the players.')))),
    h('label.field', 'Table name (optional)', h('input', { type: 'text', maxlength: 80, name: 'name',
      value: form.name || '', oninput: (e) => { form.name = fieldValue(e); } })),
    error,
    h('button.primary', { type: 'submit', 'data-testid': 'create' }, 'Start the table'),
    h('a.button.ghost', { href: '#' }, 'Cancel'),
  ];
}
