// @ts-check
// corrections.js is how the host puts a mistake right: take back the last
// entry of the round, reverse the latest round, reverse a buy-in, cash-out
// or payment. Nothing is deleted: each correction is an event of the
// table's history, with the reason given, and every phone updates. Each
// asks first, in plain words, what it will do.

import { h, add, money, time, fieldValue, message } from './dom.js';
import * as api from './api.js';
import { payload } from './tablelog.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {import('./api.js').Round} Round */

/**
 * Question is one correction confirmButton asks about: its id in s.ui,
 * what the button, the question and its detail say, the write make(body)
 * makes (an api.js endpoint), and done, which gets the answer.
 * @template R
 * @typedef {object} Question
 * @property {string} id
 * @property {string} label
 * @property {string} question
 * @property {string} [detail]
 * @property {string} yes
 * @property {(body: api.Schemas['CorrectionRequest'] | undefined) => api.Write<unknown, R>} make
 * @property {(answer: R) => Promise<void>} done
 * @property {string} testid
 */

/**
 * confirmButton is a button that, tapped, asks `question` (with an
 * optional reason) before sending the write `make(body)` makes (an api.js endpoint); `done` gets the answer.
 * `id` names the question in s.ui, so a redraw keeps it open.
 * @template R
 * @param {Ready} s
 * @param {Question<R>} q
 */
export function confirmButton(s, { id, label, question, detail, yes, make, done, testid }) {
  const ui = s.ui.correct || (s.ui.correct = {});
  const st = ui[id];
  if (!st) {
    return h('button.ghost', { type: 'button', 'data-testid': testid,
      onclick: () => { ui[id] = { reason: '' }; s.render(true); } }, label);
  }
  const reason = h('input', { type: 'text', maxlength: 500, placeholder: 'Why? (optional, shown in History)',
    'data-testid': `${testid}-reason`, value: st.reason, disabled: st.busy,
    oninput: (ev) => { st.reason = fieldValue(ev); } });
  const box = h('div.confirm', { 'data-testid': `${testid}-confirm`, role: 'group' },
    h('p.big', question), detail && h('p', detail), h('label', reason));
  add(box, st.error && h('p.error', { role: 'alert' }, st.error),
    h('div.actions',
      h('button.danger', { type: 'button', 'data-testid': `${testid}-yes`, disabled: st.busy,
        onclick: () => send(s, ui, id, make, done) }, st.busy ? 'Saving…' : yes),
      h('button', { type: 'button', disabled: st.busy, onclick: () => { delete ui[id]; s.render(true); } }, 'Cancel')));
  return box;
}

// send posts the correction once: a retry keeps its Idempotency-Key, so a
// lost answer never corrects twice.
/**
 * @template R
 * @param {Ready} s
 * @param {Record<string, import('./page.js').CorrectionCard>} ui
 * @param {string} id
 * @param {Question<R>['make']} make
 * @param {Question<R>['done']} done
 */
async function send(s, ui, id, make, done) {
  const st = ui[id];
  const body = st.reason.trim() ? { reason: st.reason.trim() } : undefined;
  if (!st.request || JSON.stringify(st.request.body) !== JSON.stringify(body)) st.request = make(body);
  st.busy = true;
  st.error = '';
  s.render(true);
  try {
    const out = /** @type {R} */ (await api.send(st.request)); // what make's Write answers
    delete ui[id];
    await done(out);
  } catch (err) {
    st.busy = false;
    st.error = 'Not corrected: ' + message(err);
    if (err instanceof api.Problem) st.request = null;
  }
  s.render(true);
}

/** roundFixes are the host's corrections of the latest round r. @param {Ready} s @param {Round | null} r */
export function roundFixes(s, r) {
  if (s.role !== 'host' || !r || r.status === 'reversed' || s.table.status === 'closed') return null;
  const n = r.number;
  const played = r.turns.some((t) => t.outcome.rolls.length > 0);
  /** @param {Round} round */
  const show = async (round) => { s.setRound(round); await s.reloadMoney(); };
  return h('section.card.fixes', { 'data-testid': 'fixes' }, h('h2', 'Made a mistake?'),
    played && confirmButton(s, { id: `take-back-${n}`, testid: 'take-back', label: 'Take back the last entry…',
      question: 'Take back the last entry of this round?',
      detail: r.status === 'settled'
        ? 'The round opens again and its payout goes back into the pot, so the last throw or stand can be entered again.'
        : 'The last throw or stand is taken back, and can be entered again.',
      yes: 'Yes, take it back', make: (body) => api.takeBack(s, n, body), done: show }),
    confirmButton(s, { id: `reverse-${n}`, testid: 'reverse-round', label: `Reverse round ${n}…`,
      question: `Reverse round ${n}?`,
      detail: 'Its antes and payout go back to everyone, as if it had not been played. The next round you start plays it again.',
      yes: 'Yes, reverse it', make: (body) => api.reverseRound(s, n, body), done: show }));
}

/** reversedCard says a round was reversed. @param {Ready} _s @param {Round} r */
export function reversedCard(_s, r) {
  return h('section.card.result', { 'data-testid': 'reversed' }, h('h2', `Round ${r.number}`),
    h('p.big', 'Reversed by the host.'), h('p', 'Its antes and payout went back: the money is as it was before it.'));
}

/** @type {Record<string, string>} */
const movements = { deposit: 'Buy-in', withdrawal: 'Cash-out', settlement: 'Payment' };

/**
 * moneyFixes lets the host reverse a buy-in, cash-out or payment.
 * @param {Ready} s
 * @param {api.Transaction[] | null | undefined} ledger
 */
export function moneyFixes(s, ledger) {
  if (s.role !== 'host' || !ledger) return null;
  const reversed = new Set(ledger.filter((e) => e.kind === 'reversal').map((e) => e.metadata && e.metadata.reverses));
  const rows = ledger.filter((e) => movements[e.kind] && !reversed.has(e.eventSeq) &&
    (e.kind !== 'deposit' || s.table.status !== 'closed')).slice(-8).reverse();
  if (!rows.length) return null;
  const cur = s.table.currency;
  return h('section.card.fixes', { 'data-testid': 'money-fixes' }, h('h2', 'Recorded by mistake?'),
    rows.map((e) => {
      const what = describe(s, e, cur);
      const seq = /** @type {number} */ (e.eventSeq); // a buy-in, cash-out or payment has its event
      return h('div.owes', h('p', what), confirmButton(s, { id: `entry-${e.eventSeq}`, testid: `reverse-entry-${e.eventSeq}`,
        label: 'Reverse…', question: `Reverse this ${movements[e.kind].toLowerCase()}?`, detail: `${what} The same amount moves back.`,
        yes: 'Yes, reverse it', make: (body) => api.reverseEntry(s, seq, body),
        done: async () => { await s.reloadMoney(); s.refresh(); } }));
    }));
}

// describe says in words what a buy-in, cash-out or payment moved.
/** @param {Ready} s @param {api.Transaction} e @param {string} cur */
function describe(s, e, cur) {
  /** @type {Partial<api.Schemas['Posting']>} */
  const plus = e.postings.find((p) => p.amount > 0) || {};
  /** @type {Partial<api.Schemas['Posting']>} */
  const minus = e.postings.find((p) => p.amount < 0) || {};
  /** @param {Partial<api.Schemas['Posting']>} p */
  const who = (p) => (p.account === 'player' ? s.name(p.playerId) : 'the bank');
  // A movement by hand has a posting each way.
  const up = /** @type {number} */ (plus.amount);
  const down = /** @type {number} */ (minus.amount);
  if (e.kind === 'deposit') return `${who(plus)} bought in for ${money(up, cur)}.`;
  if (e.kind === 'withdrawal') return `${who(minus)} cashed out ${money(-down, cur)}.`;
  return `${who(plus)} paid ${who(minus)} ${money(up, cur)}.`;
}

/**
 * correctionsCard lists the night's corrections with their reasons, for
 * History, from the table log's events (it picks the corrections out).
 * @param {Ready} s
 * @param {api.TableEvent[] | undefined} events
 */
export function correctionsCard(s, events) {
  const lines = (events || []).map((e) => correctionLine(s, e)).filter(Boolean);
  if (!lines.length) return null;
  return h('section.card', { 'data-testid': 'corrections' }, h('h2', 'Corrections'),
    h('ul.plain', lines.reverse().map((l) => h('li', l))));
}

// correctionLine is one correction in words after its time, or null for an
// event that corrects nothing.

/** @param {Ready} s @param {api.TableEvent} e */
function correctionLine(s, e) {
  const p = payload(e);
  /** @param {string} words */
  const at = (words) => [time(e.createdAt), `: ${words}`];
  /** @param {string | undefined} r */
  const why = (r) => (r ? ` Reason: “${r}”.` : ' No reason given.');
  if (e.kind === 'round.voided') {
    return at(`the host took back ${s.name(p.player)}’s last entry in round ${p.round}` +
      `${p.reopened ? ', which opened the round again' : ''}.${why(p.reason)}`);
  }
  if (e.kind === 'round.reversed') return at(`the host reversed round ${p.round}.${why(p.reason)}`);
  if (e.kind === 'ledger.reversal' && p.metadata && String(p.metadata.kind) in movements) {
    return at(`the host reversed ${undone(s, p)}.${why(p.metadata.reason)}`);
  }
  return null;
}

// undone says what a reversal event moved back, from its postings (the
// reversed movement's, negated): "Cy’s buy-in of 500 chips".
/** @param {Ready} s @param {import('./tablelog.js').Payload} p */
function undone(s, p) {
  const cur = s.table.currency;
  const kind = p.metadata && p.metadata.kind;
  /** @param {{ account: string } | undefined} x */
  const party = (x) => (x && x.account.startsWith('player:') ? s.name(Number(x.account.slice(7))) : 'the bank');
  const up = (p.postings || []).find((x) => x.amount > 0);
  const down = (p.postings || []).find((x) => x.amount < 0);
  const amount = up ? up.amount : 0;
  if (kind === 'deposit') return `${party(down)}’s buy-in of ${money(amount, cur)}`;
  if (kind === 'withdrawal') return `${party(up)}’s cash-out of ${money(amount, cur)}`;
  return `the payment of ${money(amount, cur)} from ${party(down)} to ${party(up)}`;
}
