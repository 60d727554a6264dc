// money.js is the Money tab: balances, and the settle-up plan with a "mark
// paid" button for each payment (the host, or the player being paid).

import { h, replace } from './dom.js';
import * as api from './api.js';

/** moneyTab shows balances and who owes whom. */
export async function moneyTab(el, s) {
  const cur = s.table.currency;
  const [bal, plan] = await Promise.allSettled([api.get(s.path('/balances'), s.token), api.get(s.path('/settle-up'), s.token)]);
  if (bal.status === 'rejected') {
    replace(el, h('p.card.error', bal.reason.message));
    return;
  }
  const b = bal.value;
  replace(el,
    h('section.card', { 'data-testid': 'balances' }, h('h2', 'Balances'),
      h('ul.scores', b.players.map((p) => h('li', { class: p.left ? 'left' : '' },
        h('span', p.name), h('b', { class: p.balance > 0 ? 'plus' : p.balance < 0 ? 'minus' : '' }, signed(p.balance, cur))))),
      b.pot > 0 && h('p', `In the pot: ${b.pot} ${cur}.`)),
    settleCard(s, plan, cur),
    h('section.card', h('button.ghost', { type: 'button', 'data-testid': 'csv', onclick: () => downloadLedger(s) },
      'Download the ledger (CSV)')));
}

// downloadLedger saves GET ledger.csv; a plain link cannot carry the token.
async function downloadLedger(s) {
  const res = await fetch(s.path('/ledger.csv'), { headers: { Authorization: 'Bearer ' + s.token } });
  if (!res.ok) return;
  const url = URL.createObjectURL(await res.blob());
  const a = h('a', { href: url, download: `tally-table-${s.id}.csv` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function signed(n, cur) {
  return `${n > 0 ? '+' : ''}${n} ${cur}`;
}

// settleCard lists the payments that square everyone up.
function settleCard(s, plan, cur) {
  const card = h('section.card', { 'data-testid': 'settle' }, h('h2', 'Settle up'));
  if (plan.status === 'rejected') {
    const e = plan.reason;
    card.append(h('p', e.type === '/problems/pot-not-empty' ? `Settle up once the pot is empty: ${e.message}` : e.message));
    return card;
  }
  const p = plan.value;
  if (!p.payments.length) {
    card.append(h('p.big', 'Everyone is square.'));
    return card;
  }
  const ui = s.ui.pay || (s.ui.pay = {});
  p.payments.forEach((pay, i) => {
    const mayMark = s.role === 'host' || (s.role === 'player' && s.me === pay.to.playerId && pay.to.playerId !== 0);
    const key = `${pay.from.playerId}>${pay.to.playerId}:${pay.amount}`;
    card.append(h('div.owes', h('p', p.owes[i] || `${pay.from.name} pays ${pay.to.name} ${pay.amount} ${cur}`),
      mayMark && h('button.primary', { type: 'button', 'data-testid': 'mark-paid', disabled: ui[key] && ui[key].busy,
        onclick: () => markPaid(s, ui, key, pay) }, ui[key] && ui[key].busy ? 'Saving…' : 'Mark paid'),
      ui[key] && ui[key].error && h('p.error', ui[key].error)));
  });
  return card;
}

async function markPaid(s, ui, key, pay) {
  const body = { from: pay.from.playerId, to: pay.to.playerId, amount: pay.amount };
  const st = ui[key] || (ui[key] = {});
  if (!st.request) st.request = api.write(s.path('/payments'), body, s.token);
  st.busy = true;
  st.error = '';
  s.render();
  try {
    await api.send(st.request);
    delete ui[key];
  } catch (err) {
    st.busy = false;
    st.error = err.message;
    if (err instanceof api.Problem) st.request = null;
  }
  s.render();
}
