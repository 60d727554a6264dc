// @ts-check
// diceform.js is the part of the start form that sets a dice table's rules:
// every option POST /v1/tables takes (openapi.yaml's Options, game.Options),
// in plain words. The ones a bar changes most (ante, unit, the house rules)
// are in view; who starts, re-anteing after a tie and the payoff wait under
// "More options". Each shows the chosen preset's default until changed.

import { h, fieldValue } from './dom.js';

/** STARTS names the start rules the way a table says them. */
const STARTS = [
  ['rotate-left', 'The next player to the left'],
  ['rotate-right', 'The next player to the right'],
  ['roll-off', 'A roll-off: lowest five dice'],
  ['loser-first', 'Last round’s lowest scorer'],
];

/** @typedef {import('./api.js').Schemas['Ruleset']} Ruleset */

/**
 * DiceForm is the start form's state across redraws: the preset, the
 * players' names, and each option as changed (by its name in Options:
 * undefined keeps the preset's), numbers as typed.
 * @typedef {object} DiceForm
 * @property {string} [preset]
 * @property {string[]} [names] the players' names (a crew's night seats members instead)
 * @property {string} [currency]
 * @property {string} [name]
 * @property {boolean} [noOverdraft]
 * @property {boolean} [more] the "More options" are open
 * @property {{ kind: string, target: unknown }} [goal]
 * @property {unknown} [ante]
 * @property {unknown} [stake]
 * @property {string} [start] who throws first each round
 * @property {string} [payoff] 'pot' or 'per-point'
 */

/**
 * option reads an option of the form or of the preset by name.
 * @param {DiceForm | Ruleset} from
 * @param {string} key
 * @returns {unknown}
 */
const option = (from, key) => /** @type {Record<string, unknown>} */ (from)[key];

/**
 * diceOptions draws the rule fieldsets for the preset whose defaults are
 * rs; form keeps what was changed across redraws (undefined: the default).
 * @param {Ruleset} rs
 * @param {DiceForm} form
 * @param {() => void} draw
 */
export function diceOptions(rs, form, draw) {
  const meier = rs.family === 'meier';
  const scarne = rs.goal.kind !== 'round';
  const set = /** @type {Record<string, unknown>} */ (form);
  /** @param {string} key @param {string} label @param {string} [note] */
  const toggle = (key, label, note) => h('label.toggle', h('input', {
    type: 'checkbox', name: key, checked: value(form, rs, key), onchange: (e) => { set[key] = /** @type {HTMLInputElement} */ (e.target).checked; draw(); },
  }), h('span', label, note ? h('small', note) : null));
  /** @param {string} key @param {string} label @param {number} min @param {number} fallback */
  const number = (key, label, min, fallback) => h('label.field', label, h('input', {
    type: 'number', inputmode: 'numeric', min, step: 1, name: key,
    value: set[key] ?? fallback, oninput: (e) => { set[key] = fieldValue(e); },
  }));
  const perPoint = value(form, rs, 'payoff') === 'per-point';
  const goal = form.goal || rs.goal;
  return [
    h('fieldset', h('legend', 'Money'),
      h('div.pair',
        number('ante', scarne ? 'Ante for the game' : 'Ante each round', 0, rs.ante),
        h('label.field', 'Unit', h('input', { type: 'text', name: 'currency', maxlength: 24, placeholder: 'units',
          value: form.currency || '', oninput: (e) => { form.currency = fieldValue(e); } }))),
      h('label.toggle', h('input', { type: 'checkbox', name: 'noOverdraft', checked: !!form.noOverdraft,
        onchange: (e) => { form.noOverdraft = /** @type {HTMLInputElement} */ (e.target).checked; } }), h('span', 'Nobody may go below zero',
        h('small', 'Players buy in with the host first')))),
    scarne && h('fieldset', h('legend', 'How the game ends'),
      radio('goal-kind', 'points', goal.kind === 'points', 'First to a number of points', 'That round is played out; the highest total wins',
        () => { form.goal = { kind: 'points', target: 100 }; draw(); }),
      radio('goal-kind', 'rounds', goal.kind === 'rounds', 'After a number of rounds', 'The highest total then wins',
        () => { form.goal = { kind: 'rounds', target: 10 }; draw(); }),
      h('label.field', goal.kind === 'points' ? 'Points to win' : 'Rounds to play', h('input', {
        type: 'number', inputmode: 'numeric', min: 1, max: 10000, step: 1, name: 'goal-target', value: goal.target,
        oninput: (e) => { form.goal = { kind: goal.kind, target: fieldValue(e) }; },
      }))),
    h('fieldset', h('legend', 'House rules'),
      !meier && toggle('automatic', 'Automatic', 'A 6-6 cargo wins the round at once'),
      !meier && toggle('closedRolls', 'Closed rolls', 'Re-rolls are thrown under the cup, hidden from the table until the round ends'),
      !scarne && toggle('low', 'Low wins', 'The lowest score takes the pot ("low boy")'),
      !scarne && toggle('progressive', 'Progressive pot', 'Each round someone names the winning score; only hitting it exactly wins, else the pot carries over')),
    h('details.more', { open: form.more, ontoggle: (e) => { form.more = /** @type {HTMLDetailsElement} */ (e.target).open; } },
      h('summary', 'More options'),
      h('fieldset', h('legend', 'Who throws first each round'),
        h('select', { name: 'start', 'aria-label': 'who throws first each round',
          onchange: (e) => { form.start = fieldValue(e); } },
        STARTS.map(([v, label]) => h('option', { value: v, selected: value(form, rs, 'start') === v }, label)))),
      // A game of rounds antes once, before its first round.
      !scarne && h('fieldset', h('legend', 'After a tie'),
        toggle('reanteOnTie', 'Everyone antes again', 'Off: the carried pot is played for without a new ante')),
      h('fieldset', h('legend', 'How the winner is paid'),
        radio('payoff', 'pot', !perPoint, 'The pot', 'The winner takes what everyone anted', () => { form.payoff = 'pot'; draw(); }),
        radio('payoff', 'per-point', perPoint, 'Per point', 'Each other player also pays the winner for every point they lose by',
          () => { form.payoff = 'per-point'; draw(); }),
        perPoint && number('stake', 'Paid per point', 1, rs.stake || 1))),
  ];
}

/**
 * radio is one choice of a group drawn as a big labelled row.
 * @param {string} name @param {string} value @param {boolean} on @param {string} label @param {string} note
 * @param {() => void} pick
 */
function radio(name, value, on, label, note, pick) {
  return h('label.preset', { class: on ? 'on' : '' },
    h('input', { type: 'radio', name, value, checked: on, onchange: pick }),
    h('span', h('b', label), h('small', note)));
}

/**
 * value is an option's value on the form: as changed, else its default.
 * @param {DiceForm} form @param {Ruleset} rs @param {string} key
 * @returns {unknown}
 */
function value(form, rs, key) {
  return option(form, key) ?? byDefault(form, rs, key);
}

// byDefault is an option's default on the form: the preset's, except that
// a low game has no automatic unless the table says so (game.Ruleset).
/** @param {DiceForm} form @param {Ruleset} rs @param {string} key @returns {unknown} */
function byDefault(form, rs, key) {
  return key === 'automatic' && value(form, rs, 'low') ? false : option(rs, key);
}

// OPTIONS are the options sent only when they differ from the preset's.
const OPTIONS = ['automatic', 'closedRolls', 'low', 'progressive', 'start', 'reanteOnTie', 'payoff'];

/**
 * diceRequest turns the form into POST /v1/tables for the preset whose
 * defaults are rs, sending only the options that differ from them. Numbers
 * go as typed: a bad one is the server's to refuse, in words.
 * @param {Ruleset} rs
 * @param {DiceForm} form
 * @returns {import('./api.js').Schemas['CreateTableRequest']}
 */
export function diceRequest(rs, form) {
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const key of OPTIONS) {
    if (option(form, key) !== undefined && option(form, key) !== byDefault(form, rs, key)) options[key] = option(form, key);
  }
  /** @param {unknown} v */
  const num = (v) => (v === '' || v === undefined ? undefined : Number(v));
  const ante = num(form.ante) ?? rs.ante;
  if (ante !== rs.ante) options.ante = ante;
  if (value(form, rs, 'payoff') === 'per-point') options.stake = num(form.stake) ?? (rs.stake || 1);
  if (form.goal) {
    const goal = { kind: form.goal.kind, target: num(form.goal.target) };
    if (goal.kind !== rs.goal.kind || goal.target !== rs.goal.target) options.goal = goal;
  }
  /** @type {import('./api.js').Schemas['CreateTableRequest']} */
  const body = { preset: /** @type {string} */ (form.preset), players: (form.names || []).map((n) => n.trim()).filter(Boolean) };
  // The options as the form holds them: the server checks each, in words.
  if (Object.keys(options).length) body.options = /** @type {import('./api.js').Schemas['Options']} */ (options);
  if (form.currency && form.currency.trim()) body.currency = form.currency.trim();
  if (form.name && form.name.trim()) body.name = form.name.trim();
  if (form.noOverdraft) body.noOverdraft = true;
  return body;
}
