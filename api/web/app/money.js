// @ts-check
// money.js is the Money tab: a player's own "Your money" card (owed.js),
// balances, the settle-up plan with a "mark paid" button for each payment
// (the host, or the player being paid), the host's buy-ins and cash-outs,
// and closing the table at the end of the night. A closed table offers to
// share the night (share.js); a crew's night, whose money is the crew's,
// sends its players there to settle up (nights.js). The crew's
// page (crew.js) draws its balances and settle-up with the same cards.

import { h, add, money, signed, message } from './dom.js';
import * as api from './api.js';
import { cashCard, closeCard } from './host.js';
import { moneyFixes } from './corrections.js';
import { yourMoneyCard } from './owed.js';
import { shareCard } from './share.js';
import { crewNightCard } from './nights.js';
import { answerBox, claimsToAnswer } from './paying.js';
import { handlesCard, unitValueCard } from './handles.js';

/**
 * moneyTab shows balances and who owes whom, drawn from what was last fetched.
 * @param {HTMLElement} el
 * @param {import('./session.js').Ready} s
 */
export function moneyTab(el, s) {
  const data = s.cached('money', () => loadMoney(s));
  if (!data) {
    el.append(h('p.card.muted', 'Loading the balances…'));
    return;
  }
  const cur = s.table.currency;
  const closed = s.table.status === 'closed';
  // A crew's night moves only the game's money: buy-ins, cash-outs and
  // payments are the crew's, and its results roll into the crew as it closes.
  const rolled = !!s.table.crew;
  // A player's phone says first, in words, what they owe and are owed.
  if (!rolled) add(el, yourMoneyCard(s, data));
  add(el, rolled && crewNightCard(s, closed), closed && shareCard(s));
  if (data.balances.error) {
    el.append(h('p.card.error', data.balances.error));
  } else {
    el.append(balancesCard(/** @type {api.Balances} */ (data.balances.value), cur, closed)); // read: no error
  }
  if (!rolled) el.append(settleCard(s, data.plan, cur));
  if (!rolled) add(el, handlesCard(s, data.handles && data.handles.value), unitValueCard(s));
  if (s.role === 'host' && !rolled) add(el, cashCard(s), moneyFixes(s, data.ledger && data.ledger.value));
  el.append(exportCard(s));
  if (s.role === 'host' && !closed) el.append(closeCard(s));
}

// loadMoney reads the balances and the settle-up plan as plain data, so that
// two answers can be compared and a refusal shown in words.
/** @param {import('./session.js').Ready} s @returns {Promise<import('./page.js').MoneyData>} */
async function loadMoney(s) {
  const [bal, plan, ledger, handles] = await Promise.allSettled([api.balances(s), api.settleUp(s),
    s.role === 'host' ? api.ledger(s) : Promise.resolve(null), s.role === 'audit' ? Promise.resolve([]) : api.handles(s)]);
  /** @template T @param {PromiseSettledResult<T>} r @returns {import('./page.js').Loaded<T> & { type?: string }} */
  const plain = (r) => (r.status === 'fulfilled' ? { value: r.value }
    : { error: message(r.reason), type: r.reason instanceof api.Problem ? r.reason.type : '' });
  return { balances: plain(bal), plan: plain(plan), ledger: plain(ledger), handles: plain(handles) };
}

/**
 * balancesCard lists what the table owes each player (plus) or each player
 * owes (minus), the pot, and the cash the bank holds after buy-ins; title
 * replaces the card's heading (the crew's "Running balances").
 * @param {api.Balances} b
 * @param {string} cur
 * @param {boolean} closed
 * @param {string} [title]
 */
export function balancesCard(b, cur, closed, title) {
  return h('section.card', { 'data-testid': 'balances' }, h('h2', title || (closed ? 'Final balances' : 'Balances')),
    closed && h('p.muted', 'The table is closed: these are the night’s results.'),
    b.value && h('p.muted.small', { 'data-testid': 'unit-worth' }, `${b.value.text}. ${b.value.rounding}`),
    h('ul.scores', b.players.map((p, i) => h('li', { class: p.left ? 'left' : '' },
      h('span', p.name, p.left ? h('small.muted', ' (left)') : null),
      h('b', { class: p.balance > 0 ? 'plus' : p.balance < 0 ? 'minus' : '' }, signed(p.balance, cur),
        b.worth && b.worth[i] && h('small', ` = ${b.worth[i].text}`))))),
    b.pot > 0 && h('p', `In the pot: ${money(b.pot, cur)}.`),
    b.bank < 0 && h('p', { 'data-testid': 'bank' }, `The bank holds ${money(-b.bank, cur)} in cash from buy-ins.`),
    b.bank > 0 && h('p', { 'data-testid': 'bank' }, `The bank has paid out ${money(b.bank, cur)} more than it took in.`));
}

/**
 * exportCard offers the ledger as CSV and the statement made for printing.
 * @param {import('./page.js').Page} s
 */
export function exportCard(s) {
  return h('section.card', { 'data-testid': 'exports' },
    h('button.ghost', { type: 'button', 'data-testid': 'csv', onclick: () => downloadLedger(s) }, 'Download the ledger (CSV)'),
    h('button.ghost', { type: 'button', 'data-testid': 'print-statement', onclick: () => printStatement(s) }, 'Print the statement'),
    s.ui.print && s.ui.print.error && h('p.error', { role: 'alert' }, s.ui.print.error));
}

/**
 * printStatement opens the statement's page (statement.js) in a window of
 * its own, which reads it with this phone's token and prints it.
 * @param {import('./page.js').Page} s
 */
function printStatement(s) {
  if (!window.open(`/app/statement.html#t=${s.id}`, '_blank')) {
    s.ui.print = { error: 'The browser blocked the new window: allow pop-ups for Tally.' };
    s.render(true);
  }
}

// downloadLedger saves GET ledger.csv; a plain link cannot carry the token.
/** @param {import('./page.js').Page} s */
async function downloadLedger(s) {
  let file;
  try {
    file = await api.ledgerCSV(s);
  } catch {
    return;
  }
  const url = URL.createObjectURL(file.blob);
  const a = h('a', { href: url, download: `tally-table-${s.id}.csv` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * settleCard lists the payments that square everyone up, each with "Mark
 * paid" for the host. The player being paid records it on the "Your
 * money" card (owed.js), after a confirmation. s is the open table's
 * session or the crew's page (page.js's Page).
 * @param {import('./page.js').Shown} s
 * @param {import('./page.js').MoneyData['plan']} plan
 * @param {string} cur
 */
export function settleCard(s, plan, cur) {
  const card = h('section.card', { 'data-testid': 'settle' }, h('h2', 'Settle up'));
  if (plan.error) {
    card.append(h('p', plan.type === '/problems/pot-not-empty'
      ? 'Settle up once the pot is empty: it carries over to the next round, or goes back to the players when the table closes.'
      : plan.error));
    return card;
  }
  const p = /** @type {api.SettleUp} */ (plan.value); // read: no error
  if (!p.payments.length) {
    card.append(h('p.big', 'Everyone is square.'));
    return card;
  }
  const ui = s.ui.pay || (s.ui.pay = {});
  // The host answers every claim; one to the host's own seat is asked in
  // its own money card (owed.js).
  if (s.role === 'host') for (const c of claimsToAnswer(s, p)) if (c.to !== s.me) card.append(answerBox(s, p, c));
  p.payments.forEach((pay, i) => {
    const mayMark = s.role === 'host';
    const key = `${pay.from.playerId}>${pay.to.playerId}:${pay.amount}`;
    card.append(h('div.owes', h('p', p.owes[i] || `${pay.from.name} pays ${pay.to.name} ${money(pay.amount, cur)}`),
      mayMark && h('button.primary', { type: 'button', 'data-testid': 'mark-paid', disabled: ui[key] && ui[key].busy,
        onclick: () => markPaid(s, ui, key, pay) }, ui[key] && ui[key].busy ? 'Saving…' : 'Mark paid'),
      ui[key] && ui[key].error && h('p.error', ui[key].error)));
  });
  return card;
}

/**
 * @param {import('./page.js').Shown} s
 * @param {Record<string, import('./page.js').Card>} ui the payments being marked, by key
 * @param {string} key
 * @param {api.Schemas['SettlePayment']} pay
 */
async function markPaid(s, ui, key, pay) {
  const body = { from: pay.from.playerId, to: pay.to.playerId, amount: pay.amount };
  const st = ui[key] || (ui[key] = {});
  if (!st.request) st.request = api.pay(s, body);
  st.busy = true;
  st.error = '';
  s.render(true);
  try {
    await api.send(st.request);
    await s.reloadMoney();
    delete ui[key];
  } catch (err) {
    st.busy = false;
    st.error = message(err);
    if (err instanceof api.Problem) st.request = null;
  }
  s.render(true);
}
