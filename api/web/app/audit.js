// @ts-check
// audit.js is what a phone can check of a table's night: the audit (hash
// chain, seals, money, every round replayed, and the latest head this phone
// witnessed still in the history), an alarm when any of it fails, and the
// night receipt to check offline.

import { h, plural, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';

// audited keeps the last audit per table with the moment it checked: the
// audit replays the night (and is limited per token), so it is asked again
// only when a round has been settled or the table closed, not on every
// roll of the live round.
/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {api.AuditReport} AuditReport */
/** @typedef {NonNullable<AuditReport['witnessed']>[number]} Witnessed */

/** @type {Map<number, { at: string, answer: Promise<AuditReport> }>} */
const audited = new Map();

/**
 * lastAudit is the table's audit, asked with the latest head this phone
 * saw: the history must still hold it, or events were cut or rewritten
 * after this phone saw them.
 * @param {Ready} s
 */
export function lastAudit(s) {
  const at = `${s.table.roundsPlayed}/${s.table.status}`;
  const last = audited.get(s.id);
  if (last && last.at === at) return last.answer;
  const head = store.head(s.id);
  const answer = api.audit(s, head);
  audited.set(s.id, { at, answer });
  answer.catch(() => audited.delete(s.id)); // a failed check is tried again
  return answer;
}

/**
 * auditCards shows the audit: a red alarm first when the history fails
 * any check, then each check in plain words.
 * @param {import('./tablelog.js').Loaded<AuditReport>} audit
 */
export function auditCards(audit) {
  if (audit.error) return [h('p.card.error', `Audit unavailable: ${audit.error}`)];
  const a = /** @type {AuditReport} */ (audit.value); // read: no error
  return !a.ok || !a.witnessOk ? [alarmCard(a), checksCard(a)] : [checksCard(a)];
}

// alarmCard says what broke, most telling first: what this phone saw and
// the history no longer holds, then every other problem the audit found.
/** @param {AuditReport} a */
function alarmCard(a) {
  const lost = (a.witnessed || []).filter((w) => !w.ok);
  const said = new Set(lost.map((w) => w.detail));
  const lines = [...lost.map((w) => seenButGone(w, a)),
    ...(a.problems || []).filter((p) => !said.has(p)).map(sentence)];
  return h('section.card.alarm', { 'data-testid': 'audit-alarm', role: 'alert' },
    h('h2', lost.length ? 'Warning: this table’s history was changed after this phone saw it'
      : 'Warning: this table’s history does not check out'),
    h('ul', lines.map((l) => h('li', l))),
    h('p', 'Settle nothing on this history. What this phone saw is the evidence: keep this screen and show it to the table.'));
}

// seenButGone says in plain words which witnessed head the history lacks.
/** @param {Witnessed} w @param {AuditReport} a */
function seenButGone(w, a) {
  if (w.seq > a.events) {
    return `This phone saw event ${w.seq} of this table, but the history now ends at event ${a.events}: ` +
      'events were removed after this phone saw them.';
  }
  return `This phone saw event ${w.seq} of this table, but the history now holds another event ${w.seq}: ` +
    'the history was rewritten after this phone saw it.';
}

// sentence starts a message with a capital and ends it with a full stop.
/** @param {string} p */
function sentence(p) {
  const s = p.charAt(0).toUpperCase() + p.slice(1);
  return /[.!?]$/.test(s) ? s : s + '.';
}

// checksCard lists each check of the audit with its outcome.
/** @param {AuditReport} a */
function checksCard(a) {
  const rounds = a.rounds || [];
  const bad = rounds.filter((r) => !r.ok);
  const earlier = rounds.length - (a.replayed || 0);
  /** @param {boolean | undefined} ok @param {string} text */
  const check = (ok, text) => h('li', { class: ok ? 'pass' : 'fail' }, h('span.mark', ok ? '✓' : '✗'), h('span', text));
  const seen = (a.witnessed || [])[0];
  return h('section.card.audit', { 'data-testid': 'audit', class: a.ok ? 'ok' : 'bad' },
    h('h2', a.ok ? 'Audit: all checks pass' : 'Audit: PROBLEM'),
    h('ul.checks',
      check(a.chainOk, a.chainOk ? `History: ${plural(a.events, 'event', 'events')}, each linked to the one before (hash chain intact).`
        : `History: the hash chain breaks at ${a.firstBreak || 'an unknown event'}.`),
      check(a.sealsOk, a.sealsOk ? 'Seals: every event carries this server’s seal.'
        : 'Seals: some events were written or changed without this server’s key.'),
      check(a.journalOk && a.balancesOk, a.journalOk && a.balancesOk ? 'Money: every payment matches the event that recorded it, and the balances add up.'
        : 'Money: the books do NOT match the history.'),
      seen ? check(a.witnessOk, a.witnessOk ? `Witnessed: this phone saw event ${seen.seq}, and the history still holds it.`
        : `Witnessed: this phone saw event ${seen.seq}, and the history no longer holds it.`)
        : h('li.muted', h('span.mark', '–'), h('span', 'Witnessed: this phone has not seen a head of this table yet.')),
      check(!bad.length, `Rounds: ${plural(rounds.length, 'round', 'rounds')} checked against the rules` +
        (earlier > 0 ? ` (${earlier} by an earlier audit, unchanged since).` : '.'))),
    bad.map((r) => h('p.error', `Round ${r.number}: ${r.detail || 'does not replay'}`)));
}

/**
 * receiptCard offers the night receipt, a file signed by the server that
 * anyone can check offline. ui is the tab's state for it (busy, done,
 * error).
 * @param {Ready} s
 */
export function receiptCard(s) {
  const ui = s.ui.receipt || (s.ui.receipt = {});
  return h('section.card', { 'data-testid': 'receipt' },
    h('h2', 'Night receipt'),
    h('p', 'Every throw and every payment of the night in one file signed by this server.'),
    h('p.small.muted', 'Anyone can check it offline with ', h('code', 'tallyd verify FILE'), '.'),
    h('button', { type: 'button', 'data-testid': 'download-receipt', disabled: ui.busy, onclick: () => downloadReceipt(s, ui) },
      ui.busy ? 'Downloading…' : 'Download the night receipt'),
    ui.done && h('p.ok', { role: 'status', 'data-testid': 'receipt-done' }, ui.done),
    ui.key && h('p.small.muted', { 'data-testid': 'receipt-key' }, 'Signed with this server\'s key; check it with ',
      h('code', `tallyd verify --key ${ui.key} FILE`), '.'),
    ui.error && h('p.error', { role: 'alert', 'data-testid': 'receipt-error' }, ui.error));
}

// downloadReceipt fetches the receipt with this phone's token and saves it
// under the name the server gives it.
/** @param {Ready} s @param {import('./page.js').ReceiptCard} ui */
async function downloadReceipt(s, ui) {
  Object.assign(ui, { busy: true, done: '', error: '' });
  s.render(true);
  try {
    const { blob, name } = await api.receipt(s);
    if (!ui.key) ui.key = (await api.receiptKey().catch(() => ({ publicKey: '' }))).publicKey;
    const url = URL.createObjectURL(blob);
    const link = h('a', { href: url, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    ui.done = `Saved as ${name}.`;
  } catch (err) {
    ui.error = err instanceof api.Problem ? `No receipt yet. ${sentence(message(err))}` : message(err);
  }
  ui.busy = false;
  s.render(true);
}
