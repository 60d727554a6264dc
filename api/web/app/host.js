// @ts-check
// host.js holds what only the host's phone does with money: record a
// player's buy-in or cash-out (the host holds the bank's cash), and close the
// table at the end of the night, after a clear confirmation.

import { h, money, fieldValue, message } from './dom.js';
import * as api from './api.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {import('./page.js').Card} Card */

/** cashCard records buy-ins (cash to the bank) and cash-outs (cash back). @param {Ready} s */
export function cashCard(s) {
  const t = s.table;
  const cur = t.currency;
  const closed = t.status === 'closed';
  const ui = s.ui.cash || (s.ui.cash = { player: 0, amount: '' });
  if (!t.players.some((p) => p.id === ui.player)) ui.player = (t.players.find((p) => !p.leftAt) || t.players[0] || {}).id || 0;
  return h('section.card', { 'data-testid': 'cash' },
    h('h2', closed ? 'Cash-outs' : 'Buy-ins and cash-outs'),
    h('p.muted.small', closed ? 'The table is closed: no more buy-ins, but you can still hand cash back.'
      : 'Cash a player hands you is a buy-in; cash you hand back is a cash-out.'),
    h('label.field', 'Player', h('select', { name: 'cash-player', onchange: (e) => { ui.player = Number(fieldValue(e)); } },
      t.players.map((p) => h('option', { value: p.id, selected: p.id === ui.player }, p.leftAt ? `${p.name} (left)` : p.name)))),
    h('label.field', `Amount (${cur})`, h('input', { type: 'number', inputmode: 'numeric', min: 1, step: 1, name: 'cash-amount',
      value: ui.amount, placeholder: '0', oninput: (e) => { ui.amount = fieldValue(e); } })),
    h('div.actions',
      !closed && h('button.primary', { type: 'button', 'data-testid': 'buy-in', disabled: ui.busy,
        onclick: () => cash(s, ui, 'deposits') }, 'Buy in'),
      h('button.primary.alt', { type: 'button', 'data-testid': 'cash-out', disabled: ui.busy,
        onclick: () => cash(s, ui, 'withdrawals') }, 'Cash out')),
    ui.busy && h('p.muted', 'Saving…'),
    ui.done && h('p.ok', { role: 'status', 'data-testid': 'cash-done' }, ui.done),
    ui.error && h('p.error', { role: 'alert', 'data-testid': 'cash-error' }, ui.error));
}

// cash records one buy-in or cash-out. The key is kept across retries of
// the same entry and dropped once it is recorded or refused.
/** @param {Ready} s @param {import('./page.js').CashCard} ui @param {'deposits' | 'withdrawals'} kind */
async function cash(s, ui, kind) {
  const amount = Number(ui.amount);
  const cur = s.table.currency;
  ui.done = '';
  if (!Number.isInteger(amount) || amount < 1) {
    ui.error = `Type the amount in whole ${cur}, 1 or more.`;
    s.render(true);
    return;
  }
  const body = { player: ui.player, amount };
  const next = api.cash(s, kind, body);
  if (!ui.request || ui.request.path !== next.path || JSON.stringify(ui.request.body) !== JSON.stringify(body)) {
    ui.request = next;
  }
  ui.busy = true;
  ui.error = '';
  s.render(true);
  try {
    await api.send(ui.request);
    await s.reloadMoney();
    const who = s.name(body.player);
    ui.done = kind === 'deposits' ? `Recorded: ${who} bought in ${money(amount, cur)}.` : `Recorded: ${who} cashed out ${money(amount, cur)}.`;
    ui.amount = '';
    ui.request = null;
  } catch (err) {
    ui.error = 'Not recorded: ' + message(err);
    if (err instanceof api.Problem) ui.request = null;
  }
  ui.busy = false;
  s.render(true);
}

/** closeCard closes the table, asking first in plain words what that means. @param {Ready} s */
export function closeCard(s) {
  const t = s.table;
  const ui = s.ui.close || (s.ui.close = {});
  const card = h('section.card.end', { 'data-testid': 'close-card' }, h('h2', 'End of the night'));
  if (t.currentRound) {
    ui.confirm = false;
    card.append(h('p.muted', `Finish round ${t.currentRound} before closing the table.`),
      h('button.danger', { type: 'button', disabled: true }, 'Close the table…'));
    return card;
  }
  if (!ui.confirm) {
    card.append(h('p.muted', 'Done playing? Closing the table shows the final balances and who pays whom.'),
      h('button.danger', { type: 'button', 'data-testid': 'close', onclick: () => { ui.confirm = true; ui.error = ''; s.render(true); } },
        'Close the table…'));
    return card;
  }
  if (ui.scroll) {
    // Arrived from the Play tab's "close the table" button: show the question.
    ui.scroll = false;
    requestAnimationFrame(() => card.scrollIntoView({ block: 'center' }));
  }
  const pot = t.pot > 0 ? `The ${money(t.pot, t.currency)} in the pot ${t.pot === 1 ? 'goes' : 'go'} back to the players of the last round.` : 'The pot is empty.';
  card.append(h('p.big', { 'data-testid': 'close-confirm' }, `Close “${t.name}” for good?`),
    h('p', pot),
    h('p', 'After this nobody can start a round, buy in or join. Cash-outs and settle-up payments can still be recorded.'),
    // Element.append writes a missing value as text ("undefined"):
    // no error, no element.
    ui.error ? h('p.error', { role: 'alert' }, ui.error) : '',
    h('div.actions',
      h('button.danger', { type: 'button', 'data-testid': 'close-yes', disabled: ui.busy, onclick: () => close(s, ui) },
        ui.busy ? 'Closing…' : 'Yes, close it'),
      h('button', { type: 'button', 'data-testid': 'close-no', disabled: ui.busy,
        onclick: () => { ui.confirm = false; ui.request = null; s.render(true); } }, 'Cancel')));
  return card;
}

// close sends POST close once (retries keep its key) and shows the final
// balances from the top of the Money tab.
/** @param {Ready} s @param {Card} ui */
async function close(s, ui) {
  if (!ui.request) ui.request = api.closeTable(s);
  ui.busy = true;
  ui.error = '';
  s.render(true);
  try {
    const table = /** @type {api.Table} */ (await api.send(ui.request)); // what closeTable answers
    await s.reloadMoney();
    s.ui.close = null;
    s.setTable(table);
    window.scrollTo(0, 0);
  } catch (err) {
    ui.busy = false;
    ui.error = 'Not closed: ' + message(err);
    if (err instanceof api.Problem) ui.request = null;
    s.render(true);
  }
}
