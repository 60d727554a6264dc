// @ts-check
// owed.js is the "Your money" card of a player's phone on the Money tab:
// what this player owes and is owed, in plain words from the settle-up plan
// ("You owe Ann 2 chips"), and recording money they received ("Bob paid me
// 2"), after a confirmation. Only the player who received money may record
// it, so nobody can wipe out their own debt by saying they paid.

import { h, money, cap, fieldValue, message } from './dom.js';
import * as api from './api.js';
import { payBox, answerBox, claimsToAnswer, worth } from './paying.js';

/** @typedef {import('./page.js').Shown} Shown */
/** @typedef {import('./page.js').Card} Card */
/** @typedef {import('./api.js').Schemas['Party']} Party */

/**
 * yourMoneyCard shows a player what they owe and are owed; null on other phones.
 * @param {Shown} s
 * @param {import('./page.js').MoneyData} data
 */
export function yourMoneyCard(s, data) {
  if (!s.me) return null; // a player's phone, or the host's when the host plays a seat
  const cur = s.table.currency;
  const ui = s.ui.owed || (s.ui.owed = { payer: 0, amount: '' });
  const card = h('section.card', { 'data-testid': 'your-money' }, h('h2', 'Your money'));
  const plan = data.plan.value;
  if (data.plan.error || !plan) {
    const mine = data.balances.value && data.balances.value.players.find((p) => p.playerId === s.me);
    card.append(h('p.big', { 'data-testid': 'your-balance' }, mine ? standing(mine.balance, cur) : 'Your balance is not known yet.'),
      h('p.muted.small', 'Who pays whom shows here once the pot is empty.'));
    return card;
  }
  for (const c of claimsToAnswer(s, plan)) if (c.to === s.me) card.append(answerBox(s, plan, c));
  // The payer hears the payee's yes: the last claim of this phone's, when
  // it was confirmed.
  const last = plan.claims.filter((c) => c.from === s.me).pop();
  if (last && last.status === 'confirmed') {
    card.append(h('p.ok', { role: 'status', 'data-testid': 'claim-confirmed' },
      `${last.toName} confirmed your ${worth(last, last.amount, cur)} arrived.`));
  }
  const mine = plan.payments.filter((p) => p.from.playerId === s.me || p.to.playerId === s.me);
  if (!mine.length) card.append(h('p.big', { 'data-testid': 'square' }, 'You are square: you owe nobody and nobody owes you.'));
  for (const pay of mine) {
    const other = pay.from.playerId === s.me ? pay.to : pay.from;
    const who = other.playerId ? other.name : 'the bank';
    const t = (plan.transfers || [])[plan.payments.indexOf(pay)];
    if (pay.from.playerId === s.me) {
      card.append(h('div.owes', h('p.big', { 'data-testid': 'you-owe' }, `You owe ${who} ${money(pay.amount, cur)}`),
        other.playerId && t ? payBox(s, plan, t)
          : h('p.muted.small', other.playerId ? `Hand it over: ${who} records it on their phone once they have it.`
            : 'Hand it to the host, who records it.')));
      continue;
    }
    card.append(h('div.owes', h('p.big', { 'data-testid': 'owed-you' }, `${cap(who)} owes you ${money(pay.amount, cur)}`),
      other.playerId ? paidButton(s, ui, other, pay.amount) : h('p.muted.small', 'The host cashes you out from the bank.')));
  }
  card.append(receivedForm(s, ui, cur));
  return card;
}

// paidButton is "Bob paid me 2", which asks before recording.
/** @param {Shown} s @param {import('./page.js').OwedCard} ui @param {Party} payer @param {number} amount */
function paidButton(s, ui, payer, amount) {
  const key = `${payer.playerId}:${amount}`;
  if (ui.confirm === key) return confirmBox(s, ui, payer.playerId, amount);
  return h('button.primary', { type: 'button', 'data-testid': 'paid-me', dataset: { payer: payer.name }, disabled: !!ui.busy,
    onclick: () => { Object.assign(ui, { confirm: key, error: '', done: '' }); s.render(true); } },
  `${payer.name} paid me ${amount}`);
}

// receivedForm records any other money a player received from another
// player (part of a debt, say), after the same confirmation.
/** @param {Shown} s @param {import('./page.js').OwedCard} ui @param {string} cur */
function receivedForm(s, ui, cur) {
  const others = s.table.players.filter((p) => p.id !== s.me);
  if (!others.some((p) => p.id === ui.payer)) ui.payer = (others[0] || {}).id || 0;
  const confirming = ui.confirm === 'form';
  const note = [ui.done && h('p.ok', { role: 'status', 'data-testid': 'paid-done' }, ui.done),
    ui.error && h('p.error', { role: 'alert', 'data-testid': 'paid-error' }, ui.error)];
  if (!ui.open) {
    return h('div.received', { 'data-testid': 'received' }, note,
      h('button.ghost', { type: 'button', 'data-testid': 'other-payment', onclick: () => { ui.open = true; s.render(true); } },
        'Someone paid me another amount'));
  }
  return h('div.received', { 'data-testid': 'received' },
    h('p.muted.small', 'Record money another player handed you, once you have it.'),
    h('label.field', 'Who paid you', h('select', { name: 'paid-by', disabled: confirming,
      onchange: (e) => { ui.payer = Number(fieldValue(e)); } },
    others.map((p) => h('option', { value: p.id, selected: p.id === ui.payer }, p.leftAt ? `${p.name} (left)` : p.name)))),
    h('label.field', `Amount (${cur})`, h('input', { type: 'number', inputmode: 'numeric', min: 1, step: 1, name: 'paid-amount',
      value: ui.amount, placeholder: '0', disabled: confirming, oninput: (e) => { ui.amount = fieldValue(e); } })),
    confirming ? confirmBox(s, ui, ui.payer, Number(ui.amount))
      : h('button.primary.alt', { type: 'button', 'data-testid': 'record-received', disabled: !!ui.busy, onclick: () => {
        const amount = Number(ui.amount);
        if (!Number.isInteger(amount) || amount < 1) {
          Object.assign(ui, { error: `Type the amount in whole ${cur}, 1 or more.`, done: '' });
        } else {
          Object.assign(ui, { confirm: 'form', error: '', done: '' });
        }
        s.render(true);
      } }, 'I received it'),
    !confirming && h('button.ghost', { type: 'button', onclick: () => { Object.assign(ui, { open: false, error: '' }); s.render(true); } }, 'Close'),
    note);
}

// confirmBox asks once more: a payment recorded cannot be taken back.
/** @param {Shown} s @param {import('./page.js').OwedCard} ui @param {number} payer @param {number} amount */
function confirmBox(s, ui, payer, amount) {
  const name = s.name(payer);
  const cur = s.table.currency;
  return h('div.confirm', { 'data-testid': 'paid-confirm' },
    h('p', `Record that ${name} paid you ${money(amount, cur)}? Do it only once the money is in your hand: it lowers what ${name} owes.`),
    h('div.actions',
      h('button.primary', { type: 'button', 'data-testid': 'paid-yes', disabled: !!ui.busy, onclick: () => record(s, ui, payer, amount) },
        ui.busy ? 'Saving…' : `Yes, ${name} paid me`),
      h('button', { type: 'button', disabled: !!ui.busy, onclick: () => { ui.confirm = ''; ui.request = null; s.render(true); } }, 'Cancel')));
}

// record sends POST payments (to this player); the key is kept across
// retries of the same payment.
/** @param {Shown} s @param {import('./page.js').OwedCard} ui @param {number} payer @param {number} amount */
async function record(s, ui, payer, amount) {
  const body = { from: payer, to: s.me, amount };
  if (!ui.request || JSON.stringify(ui.request.body) !== JSON.stringify(body)) ui.request = api.pay(s, body);
  ui.busy = true;
  ui.error = '';
  s.render(true);
  try {
    await api.send(ui.request);
    await s.reloadMoney();
    Object.assign(ui, { confirm: '', request: null, amount: '', open: false,
      done: `Recorded: ${s.name(payer)} paid you ${money(amount, s.table.currency)}.` });
  } catch (err) {
    ui.error = 'Not recorded: ' + message(err);
    if (err instanceof api.Problem) Object.assign(ui, { request: null, confirm: '' });
  }
  ui.busy = false;
  s.render(true);
}

// standing is a balance in words: what the table owes the player, or the
// player owes.
/** @param {number} balance @param {string} cur */
function standing(balance, cur) {
  if (balance > 0) return `The table owes you ${money(balance, cur)}`;
  if (balance < 0) return `You owe ${money(-balance, cur)}`;
  return 'You are square';
}

