// @ts-check
// tablelog.js is History's log of seats and hand-recorded money, newest
// first, from the audit log's player, ledger and host events: who joined
// with the code, seats freed and left, the host role moving to another
// phone, and every buy-in, cash-out and payment with who recorded it. Its
// one load of the log also serves History's corrections card.

import { h, money, cap, time } from './dom.js';
import * as api from './api.js';
import { minorText } from './handles.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {import('./api.js').TableEvent} TableEvent */

/**
 * Loaded is what a tab's loader made of one read: the answer, or why it
 * failed.
 * @template T
 * @typedef {{ value?: T, error?: string }} Loaded
 */

/**
 * Payload is what this log reads of an event's payload (openapi.yaml
 * leaves payloads open: each kind has its own): a player's name and seat,
 * a ledger entry's postings and metadata.
 * @typedef {object} Payload
 * @property {string} [name]
 * @property {number} [seat]
 * @property {number} [player] a round's correction: whose entry was taken back
 * @property {number} [round]
 * @property {boolean} [reopened] a take-back opened the round again
 * @property {string} [reason] why the host corrected it
 * @property {{ account: string, amount: number }[]} [postings]
 * @property {{ recordedBy?: string, reverses?: number, kind?: string, reason?: string }} [metadata]
 */

/** payload is an event's payload as this log reads it. @param {TableEvent} e @returns {Payload} */
export const payload = (e) => /** @type {Payload} */ (e.payload || {});

/**
 * loadTableLog reads the events History shows (every page): the player,
 * ledger and host events of this log and the round events whose
 * corrections correctionsCard lists. The server filters by family, the
 * part of the kind before the dot.
 * @param {Ready} s
 */
export function loadTableLog(s) {
  return api.events(s);
}

/**
 * tableLogCard lists what happened to the seats and the money by hand.
 * @param {Ready} s
 * @param {Loaded<TableEvent[]>} log
 */
export function tableLogCard(s, log) {
  const card = h('section.card', { 'data-testid': 'table-log' }, h('h2', 'Seats and payments'));
  if (log.error) {
    card.append(h('p.error', log.error));
    return card;
  }
  const events = log.value || [];
  /** @type {Map<number, Record<string, unknown>>} */
  const claims = new Map(events.filter((e) => e.kind === 'claim.sent').map((e) => [e.seq, /** @type {Record<string, unknown>} */ (e.payload || {})]));
  /** @type {[TableEvent, string][]} */
  const lines = events.map((e) => /** @type {[TableEvent, string]} */ ([e, line(s, e) || claimLine(s, e, claims)])).filter(([, text]) => text).reverse();
  if (!lines.length) {
    card.append(h('p.muted', 'Nothing yet: joins, buy-ins and payments show here.'));
    return card;
  }
  const undone = reversals(events);
  card.append(h('ul.log', lines.map(([e, text]) => {
    const rev = undone.get(e.seq);
    return h('li', { dataset: { kind: e.kind }, class: rev ? 'reversed' : '' },
      h('span.when.muted.small', time(e.createdAt)),
      h('span', text, rev && [' ', h('span.tag', { 'data-testid': 'reversed-mark' }, 'Reversed'), ' by the host at ', time(rev.createdAt), '.']));
  })));
  return card;
}

// reversals maps the event of each buy-in, cash-out or payment that was
// reversed to the reversal's event: such a line is marked, as the
// corrections card lists the reversal itself.
/** @param {TableEvent[]} events @returns {Map<number, TableEvent>} */
function reversals(events) {
  const out = new Map();
  for (const e of events) {
    const m = e.kind === 'ledger.reversal' && payload(e).metadata;
    if (m && m.reverses) out.set(m.reverses, e);
  }
  return out;
}

// line is an event in words, or '' for one this log leaves to the rounds
// (round events, antes, pots, close-outs) or to the corrections.
/** @param {Ready} s @param {TableEvent} e @returns {string} */
function line(s, e) {
  if (!/^(player|host|ledger)\./.test(e.kind || '')) return '';
  const p = payload(e);
  const cur = s.table.currency;
  switch (e.kind) {
    case 'player.seated': return `${p.name} sat down in seat ${p.seat}.`;
    case 'player.joined': return `${p.name} joined with the code.`;
    case 'player.released': return `The host freed ${p.name}’s seat.`;
    case 'player.left': return `${p.name} left the table.`;
    case 'host.recovery-offered': return 'The host phone showed a host recovery code.';
    case 'host.moved': return 'The host role moved to another phone.';
  }
  /** @type {Record<string, number>} */
  const moved = {};
  for (const x of Array.isArray(p.postings) ? p.postings : []) moved[x.account] = (moved[x.account] || 0) + x.amount;
  const by = recorder(s, p.metadata && p.metadata.recordedBy);
  const players = Object.keys(moved).filter((a) => a.startsWith('player:'));
  /** @param {string} a */
  const name = (a) => s.name(Number(a.slice('player:'.length)));
  switch (e.kind) {
    case 'ledger.deposit':
      return `${name(players[0])} bought in ${money(moved[players[0]], cur)}${by}.`;
    case 'ledger.withdrawal':
      return `${name(players[0])} cashed out ${money(-moved[players[0]], cur)}${by}.`;
    case 'ledger.settlement': {
      // The payer is owed less (+), the payee is owed more (-); the bank
      // is the world account.
      const from = Object.keys(moved).find((a) => moved[a] > 0);
      const to = Object.keys(moved).find((a) => moved[a] < 0);
      /** @param {string | undefined} a */
      const who = (a) => (a && a.startsWith('player:') ? name(a) : 'the bank');
      return `${cap(who(from))} paid ${who(to)} ${money(moved[from || ''], cur)}${by}.`;
    }
  }
  return '';
}

/**
 * claimLine is a payment claim's step (docs/payments.md §5) or the host's
 * unit value in words, or '' for any other event.
 * @param {import('./page.js').Page} s
 * @param {import('./api.js').TableEvent} e
 * @param {Map<number, Record<string, unknown>>} claims the claim.sent payloads by claim id
 */
function claimLine(s, e, claims) {
  const p = /** @type {Record<string, unknown>} */ (e.payload || {});
  const cur = s.table ? s.table.currency : '';
  const sent = claims.get(Number(p.claim));
  const what = sent ? `${s.name(Number(sent.from))}’s ${money(Number(sent.amount), cur)} to ${s.name(Number(sent.to))}` : 'a payment';
  const by = p.by === 'host' ? ' by the host' : typeof p.by === 'string' && p.by.startsWith('player:')
    ? ` by ${s.name(Number(p.by.slice('player:'.length)))}` : '';
  switch (e.kind) {
    case 'claim.sent': return `${s.name(Number(p.from))} said they sent ${s.name(Number(p.to))} ${money(Number(p.amount), cur)}.`;
    case 'claim.confirmed': return `Confirmed${by}: ${what} arrived.`;
    case 'claim.refused': return `Refused${by}: ${what} did not arrive, “${String(p.reason)}”.`;
    case 'table.unit_value': return p.currency ? `The host set one ${cur.replace(/s$/, '')} to be worth ${minorText(String(p.currency), Number(p.perUnit))}.`
      : 'The host cleared what a unit is worth.';
  }
  return '';
}

// recorder says who recorded a movement by hand, from its metadata.
/** @param {Ready} s @param {string | undefined} by */
function recorder(s, by) {
  if (by === 'host') return ' (recorded by the host)';
  if (by && by.startsWith('player:')) return ` (recorded by ${s.name(Number(by.slice('player:'.length)))})`;
  return '';
}

