// @ts-check
// nightform.js is "Start tonight's table" on a crew's page (#c=ID&v=night):
// the members who sit down, tapped in seat order, the game (a preset) with
// the start form's rules (diceform.js), and the night's name. The night is
// made with POST /v1/crews/{id}/nights; this phone holds its host token and
// opens it on the Invite tab, where the others claim their seats (or tap
// "Join tonight" on the crew's page).

import { h, replace, fieldValue, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { diceOptions, diceRequest } from './diceform.js';

/** @typedef {import('./crew.js').ReadyCrew} ReadyCrew */

/**
 * NightForm is the night being set up (c.ui.night): the rules as on the
 * start form, the members who play in seat order, and whether this phone
 * plays its member's seat.
 * @typedef {import('./diceform.js').DiceForm & import('./page.js').Card & { seats: number[], playing: boolean,
 *   presets?: import('./api.js').Preset[] }} NightForm
 */

/** nightForm draws the form into el; its state lives on the crew page's ui. @param {HTMLElement} el @param {ReadyCrew} c */
export function nightForm(el, c) {
  // playing: this member plays tonight from this phone, which hosts the
  // night (the host's own seat; no phone joins as it with the code).
  const f = /** @type {NightForm} */ (c.ui.night || (c.ui.night = { seats: c.me ? [c.me] : [], playing: !!c.me,
    name: `${new Date().toLocaleDateString('en-GB', { weekday: 'long' })} night` }));
  const draw = () => replace(el, ...body(c, f, draw));
  if (f.presets) return draw();
  el.append(h('p.card.muted', 'Loading the rules…'));
  api.presets().then((presets) => {
    f.presets = presets;
    f.preset = f.preset || presets[0].name;
    if (c.ui.night === f && el.isConnected) draw();
  }, (err) => replace(el, h('p.card.error', message(err))));
  return undefined;
}

// body is the form's content: members, game, rules, name and the buttons.
/** @param {ReadyCrew} c @param {NightForm} f @param {() => void} draw */
function body(c, f, draw) {
  const presets = f.presets || []; // read before the form is drawn
  const rs = /** @type {import('./api.js').Preset} */ (presets.find((p) => p.name === f.preset)).ruleset;
  const error = h('p.error', { hidden: !f.error, role: 'alert', 'data-testid': 'night-error' }, f.error || '');
  const members = c.table.players.filter((p) => !p.leftAt);
  const rules = h('div', diceOptions(rs, f, draw));
  // A night counts in the crew's unit: the start form's unit field goes.
  const unitField = rules.querySelector('input[name=currency]');
  if (unitField) unitField.closest('label')?.replaceWith(
h('p.muted.small', `Counted in the crew’s unit: ${c.table.currency}.`));
  return [h('form.card.start', { onsubmit: (e) => makeNight(e, c, f, rs, error) },
    h('h2', 'Start tonight’s table'),
    h('fieldset', { 'data-testid': 'night-members' }, h('legend', 'Who plays tonight? Tap in seat order'),
      h('div.pick', members.map((p) => {
        const at = f.seats.indexOf(p.id);
        return h('button.member', { type: 'button', class: at >= 0 ? 'on' : '', dataset: { name: p.name }, 'aria-pressed': String(at >= 0),
          onclick: () => { f.seats = at >= 0 ? f.seats.filter((x) => x !== p.id) : [...f.seats, p.id]; draw(); } },
        at >= 0 ? h('span.seatno', String(at + 1)) : null, p.name);
      })),
      c.me && f.seats.includes(c.me) && h('label.toggle', h('input', { type: 'checkbox', name: 'night-playing', checked: f.playing,
        'data-testid': 'night-playing', onchange: (e) => { f.playing = /** @type {HTMLInputElement} */ (e.target).checked; } }),
      h('span', `I play tonight as ${c.name(c.me)}`, h('small', 'This phone hosts the night and plays your seat; untick if you only keep the books.')))),
    h('fieldset', h('legend', 'Game'), presets.map((p) => h('label.preset', { class: p.name === f.preset ? 'on' : '' },
      h('input', { type: 'radio', name: 'preset', value: p.name, checked: p.name === f.preset,
        onchange: () => { pickPreset(f, p.name); draw(); } }),
      h('span', h('b', p.title || p.name), h('small', p.description))))),
    [...rules.childNodes],
    h('label.field', 'Name of the night', h('input', { type: 'text', maxlength: 80, name: 'night-name', value: f.name,
      oninput: (e) => { f.name = fieldValue(e); } })),
    error,
    h('button.primary', { type: 'submit', 'data-testid': 'create-night' }, 'Start the night'),
    h('a.button.ghost', { href: `#c=${c.id}` }, 'Cancel'))];
}

// pickPreset starts the rules from a preset's defaults, keeping the seats
// and the name.
/** @param {NightForm} f @param {string} preset */
function pickPreset(f, preset) {
  const keep = { seats: f.seats, playing: f.playing, name: f.name, presets: f.presets, more: f.more, noOverdraft: f.noOverdraft };
  const all = /** @type {Record<string, unknown>} */ (f);
  for (const k of Object.keys(all)) delete all[k];
  Object.assign(f, keep, { preset });
}

// makeNight sends POST /v1/crews/{id}/nights (one key per body), keeps the
// night's host token on this phone and opens its Invite tab.
/**
 * @param {SubmitEvent} e @param {ReadyCrew} c @param {NightForm} f
 * @param {import('./api.js').Schemas['Ruleset']} rs @param {HTMLElement} error
 */
async function makeNight(e, c, f, rs, error) {
  const submit = /** @type {HTMLButtonElement} */ (e.submitter);
  e.preventDefault();
  if (!f.seats.length) {
    f.error = 'Tap the members who play tonight.';
    Object.assign(error, { hidden: false, textContent: f.error });
    return;
  }
  // A night seats the crew's members: no names of players, and the crew's currency.
  const { players: _players, currency: _currency, host: _host, ...rest } = diceRequest(rs, { ...f, names: [] });
  /** @type {import('./api.js').Schemas['CreateNightRequest']} */
  const body = { ...rest, members: f.seats };
  if (f.playing && c.me && f.seats.includes(c.me)) body.host = c.me;
  if (!f.request || JSON.stringify(f.request.body) !== JSON.stringify(body)) f.request = api.createNight(c, body);
  submit.disabled = true;
  try {
    const made = /** @type {import('./api.js').CreatedTable} */ (await api.send(f.request)); // what createNight answers
    store.save({ id: made.table.id, name: made.table.name, role: 'host', token: made.hostToken, auditToken: made.auditToken,
      code: made.joinCode, crew: c.id });
    c.ui.night = null;
    location.hash = `#t=${made.table.id}&tab=invite`;
  } catch (err) {
    f.error = message(err);
    Object.assign(error, { hidden: false, textContent: message(err) });
    submit.disabled = false;
  }
}
