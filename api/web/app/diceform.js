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

/**
 * diceOptions draws the rule fieldsets for the preset whose defaults are
 * rs; form keeps what was changed across redraws (undefined: the default).
 */
export function diceOptions(rs, form, draw) {
  const meier = rs.family === 'meier';
  const scarne = rs.goal.kind !== 'round';
  const toggle = (key, label, note) => h('label.toggle', h('input', {
    type: 'checkbox', name: key, checked: value(form, rs, key), onchange: (e) => { form[key] = /** @type {HTMLInputElement} */ (e.target).checked; draw(); },
  }), h('span', label, note ? h('small', note) : null));
  const number = (key, label, min, fallback) => h('label.field', label, h('input', {
    type: 'number', inputmode: 'numeric', min, step: 1, name: key,
    value: form[key] ?? fallback, oninput: (e) => { form[key] = fieldValue(e); },
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

// radio is one choice of a group drawn as a big labelled row.
function radio(name, value, on, label, note, pick) {
  return h('label.preset', { class: on ? 'on' : '' },
    h('input', { type: 'radio', name, value, checked: on, onchange: pick }),
    h('span', h('b', label), h('small', note)));
}

// value is an option's value on the form: as changed, else its default.
function value(form, rs, key) {
  return form[key] ?? byDefault(form, rs, key);
}

// byDefault is an option's default on the form: the preset's, except that
// a low game has no automatic unless the table says so (game.Ruleset).
function byDefault(form, rs, key) {
  return key === 'automatic' && value(form, rs, 'low') ? false : rs[key];
}

// OPTIONS are the options sent only when they differ from the preset's.
const OPTIONS = ['automatic', 'closedRolls', 'low', 'progressive', 'start', 'reanteOnTie', 'payoff'];

/**
 * diceRequest turns the form into POST /v1/tables for the preset whose
 * defaults are rs, sending only the options that differ from them. Numbers
 * go as typed: a bad one is the server's to refuse, in words.
 */
export function diceRequest(rs, form) {
  const options = {};
  for (const key of OPTIONS) {
    if (form[key] !== undefined && form[key] !== byDefault(form, rs, key)) options[key] = form[key];
  }
  const num = (v) => (v === '' || v === undefined ? undefined : Number(v));
  const ante = num(form.ante) ?? rs.ante;
  if (ante !== rs.ante) options.ante = ante;
  if (value(form, rs, 'payoff') === 'per-point') options.stake = num(form.stake) ?? (rs.stake || 1);
  if (form.goal) {
    const goal = { kind: form.goal.kind, target: num(form.goal.target) };
    if (goal.kind !== rs.goal.kind || goal.target !== rs.goal.target) options.goal = goal;
  }
  const body = { preset: form.preset, players: form.names.map((n) => n.trim()).filter(Boolean) };
  if (Object.keys(options).length) body.options = options;
  if (form.currency && form.currency.trim()) body.currency = form.currency.trim();
  if (form.name && form.name.trim()) body.name = form.name.trim();
  if (form.noOverdraft) body.noOverdraft = true;
  return body;
}
