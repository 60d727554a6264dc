// home.js holds the screens before a table is open: the saved tables and
// crews, starting a table and joining a table or a crew with its code.

import { h, replace } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { plainCode, isCodeLength } from './invite.js';
import { diceOptions, diceRequest } from './diceform.js';
import { crewsCard } from './crewstart.js';

/** homeScreen lists this phone's tables and offers to start or join one. */
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

/** startScreen is the form that makes a table. */
export async function startScreen(main) {
  replace(main, h('p.card', 'Loading the rules…'));
  let presets;
  try {
    presets = await api.get('/v1/presets');
  } catch (err) {
    replace(main, h('section.card', h('p.error', err.message), h('a.button', { href: '#' }, 'Home')));
    return;
  }
  // host is the row of the host's own name (this phone plays it), -1 when
  // the host does not play: the first row unless told otherwise.
  const form = { preset: presets[0].name, names: ['', ''], game: 'dice', host: 0 };
  const draw = () => replace(main, form.game === 'royale' ? royaleForm(form, draw) : startForm(presets, form, draw));
  draw();
}

// startForm draws the table form; form holds what was typed across redraws.
// A preset is shown by its title; picking one starts from its defaults.
function startForm(presets, form, draw) {
  const rs = presets.find((p) => p.name === form.preset).ruleset;
  const error = h('p.error', { hidden: true, 'data-testid': 'start-error' });
  const submit = (e) => makeTable(e, form, diceRequest(rs, form), error);
  return h('form.card.start', { onsubmit: submit },
    h('h2', 'Start a table'),
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
function startFrom(form, preset) {
  const keep = { game: form.game, names: form.names, host: form.host, currency: form.currency, name: form.name,
    noOverdraft: form.noOverdraft, more: form.more, royale: form.royale };
  for (const k of Object.keys(form)) delete form[k];
  Object.assign(form, keep, { preset });
}

// makeTable sends POST /v1/tables from a start form (the same key on every
// retry of the same body), keeps the host's tokens on this phone and opens
// the table's invite tab; a refusal shows under the form.
async function makeTable(e, form, body, error) {
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
  if (!form.request || JSON.stringify(form.request.body) !== JSON.stringify(body)) form.request = api.write('/v1/tables', body);
  e.submitter.disabled = true;
  try {
    const made = await api.send(form.request);
    const seat = made.table.players.find((p) => p.host);
    store.save({ id: made.table.id, name: made.table.name, role: 'host', token: made.hostToken,
      auditToken: made.auditToken, code: made.joinCode, ...(seat ? { playerName: seat.name } : {}) });
    location.hash = `#t=${made.table.id}&tab=invite`;
  } catch (err) {
    error.hidden = false;
    error.textContent = err.message;
    e.submitter.disabled = false;
  }
}

// gamePicker chooses between the dice games and Battleship Royale.
function gamePicker(form, draw) {
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
function royaleForm(form, draw) {
  const r = form.royale || (form.royale = { mode: 'standard', fleet: 'dealt', die: 'real', ante: 0, bounty: 0 });
  const radio = (key, value, label, note) => h('label.preset', { class: r[key] === value ? 'on' : '' },
    h('input', { type: 'radio', name: key, value, checked: r[key] === value, 'data-testid': `royale-${key}-${value}`,
      onchange: () => { r[key] = value; draw(); } }),
    h('span', h('b', label), note ? h('small', note) : null));
  const error = h('p.error', { hidden: true, 'data-testid': 'start-error' });
  const submit = (e) => {
    const body = { game: 'royale', royale: { mode: r.mode, fleet: r.fleet, die: r.die, ante: Number(r.ante) || 0, bounty: Number(r.bounty) || 0 },
      players: form.names.map((n) => n.trim()).filter(Boolean) };
    if (form.currency && form.currency.trim()) body.currency = form.currency.trim();
    if (form.name && form.name.trim()) body.name = form.name.trim();
    return makeTable(e, form, body, error);
  };
  return h('form.card.start', { onsubmit: submit },
    h('h2', 'Start a table'),
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
          value: r.ante, oninput: (e) => { r.ante = e.target.value; } })),
        h('label.field', 'Unit', h('input', { type: 'text', name: 'currency', maxlength: 24, placeholder: 'units',
          value: form.currency || '', oninput: (e) => { form.currency = e.target.value; } }))),
      h('label.field', 'Bounty: the owner of each sunk card pays its shooter (0 for none)', h('input', { type: 'number',
        inputmode: 'numeric', min: 0, name: 'bounty', 'data-testid': 'royale-bounty', value: r.bounty, oninput: (e) => { r.bounty = e.target.value; } }))),
    formEnd(form, draw, error, 'Players in seat order (2 to 6 play each game)', 6));
}

// formEnd is the end of both start forms: the players in seat order (at
// most max), which of them this phone's holder is (the host plays that seat
// from this phone; no phone can join as it), the table's name, the error
// line and the buttons.
function formEnd(form, draw, error, legend, max) {
  const me = (i) => h('label.me', { class: form.host === i ? 'on' : '' },
    h('input', { type: 'radio', name: 'host', value: String(i), checked: form.host === i, 'data-testid': `host-${i}`,
      onchange: () => { form.host = i; form.request = null; draw(); } }), 'me');
  return [
    h('fieldset', h('legend', legend),
      h('p.muted.small', 'Mark your own name “me”: this phone plays for you, and no other phone can take your seat.'),
      form.names.map((n, i) => h('div.namerow',
        h('input.name', { type: 'text', maxlength: 40, value: n, 'aria-label': `player ${i + 1}`,
          placeholder: i === form.host ? 'Your name' : `Player ${i + 1}`, autocomplete: 'off',
          oninput: (e) => { form.names[i] = e.target.value; } }),
        me(i))),
      form.names.length < max && h('button.ghost', { type: 'button', 'data-testid': 'add-player',
        onclick: () => { form.names.push(''); draw(); } }, '+ Add a player'),
      h('label.toggle', h('input', { type: 'checkbox', name: 'not-playing', checked: form.host < 0, 'data-testid': 'host-none',
        onchange: (e) => { form.host = e.target.checked ? -1 : 0; form.request = null; draw(); } }),
      h('span', 'I’m not playing', h('small', 'This phone only keeps the books and records for the players.')))),
    h('label.field', 'Table name (optional)', h('input', { type: 'text', maxlength: 80, name: 'name',
      value: form.name || '', oninput: (e) => { form.name = e.target.value; } })),
    error,
    h('button.primary', { type: 'submit', 'data-testid': 'create' }, 'Start the table'),
    h('a.button.ghost', { href: '#' }, 'Cancel'),
  ];
}

/** joinScreen claims a seat with a join code (seats: the open seats' names). */
export function joinScreen(main, code, seats) {
  const form = { code: (code || '').toUpperCase(), name: '' };
  const error = h('p.error', { hidden: true, 'data-testid': 'join-error' });
  const join = async (name, button) => {
    name = name.trim();
    if (!form.code || !name) {
      error.hidden = false;
      error.textContent = 'Type the code and your name.';
      return;
    }
    const body = { code: plainCode(form.code) || form.code.trim(), name };
    if (!form.request || JSON.stringify(form.request.body) !== JSON.stringify(body)) form.request = api.write('/v1/join', body);
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
      error.textContent = err.message;
      button.disabled = false;
    }
  };
  const nameInput = h('input', { type: 'text', maxlength: 40, placeholder: 'Your name', 'aria-label': 'your name',
    autocomplete: 'nickname', oninput: (e) => { form.name = e.target.value; } });
  // The open seats come from the link (#join=CODE&seat=Ann) at once, then
  // from the server (GET /v1/join/CODE) for a typed code or a stale link.
  const seatBox = h('div.seats', { 'data-testid': 'open-seats' });
  const otherLabel = h('h2');
  const showSeats = (names, table) => {
    replace(seatBox, ...(names.length ? [table && h('p.muted', `Table: ${table}`), h('h2', 'Who are you?'),
      names.map((name) => h('button.primary.seat', { type: 'button', dataset: { name },
        onclick: (e) => join(name, e.currentTarget) }, name))] : []));
    otherLabel.textContent = names.length ? 'Someone else' : 'Your name';
  };
  // seatBox.dataset.ready says the list is settled for the code typed, so
  // nothing will move under a thumb (or a test) about to tap. Every code no
  // table has counts against this phone's address, so a half-typed one is
  // never looked up, nor one code twice: a 14-character code as soon as it
  // is whole, an older table's 6-character one (the start of a new one) only
  // once typed (done: the field is left, or the code came with the link).
  // Nor are the seats drawn again for the code they show: leaving the field
  // to tap one must not move it.
  const answers = new Map(); // code → the promise of its invitation; null when no table has it
  let settled = ''; // the code seatBox is settled for
  const lookUp = async (done) => {
    const code = plainCode(form.code);
    if (code === settled) return;
    settled = '';
    delete seatBox.dataset.ready;
    if (!isCodeLength(code) || (code.length < 14 && !done)) return;
    if (!answers.has(code)) {
      answers.set(code, api.send({ method: 'GET', path: `/v1/join/${code}` }, 2).catch((err) => {
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
  showSeats(seats, '');
  replace(main,
    h('header.top', h('div.title', h('a.home', { href: '#', 'aria-label': 'home' }, '⌂'), h('h1', 'Join a table or a crew'))),
    h('section.card',
      h('label.field', 'Join code', h('input.code', { type: 'text', value: form.code, maxlength: 32, autocapitalize: 'characters',
        placeholder: 'ABCD-EFGH-JKMN-PQ', spellcheck: 'false',
        autocomplete: 'off', 'aria-label': 'join code', oninput: (e) => { form.code = e.target.value.toUpperCase(); lookUp(false); },
        onchange: () => lookUp(true) })),
      seatBox,
      otherLabel,
      nameInput,
      h('button.primary', { type: 'button', 'data-testid': 'join-go', onclick: (e) => join(form.name, e.currentTarget) }, 'Join'),
      error),
    h('section.card', h('a.button.ghost', { href: '#recover=', 'data-testid': 'to-recover' }, 'Taking over as host? Use a recovery code')));
  lookUp(true);
}
