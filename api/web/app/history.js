// history.js is the History tab: every round with every roll and its
// result, and the audit (hash chain and replay of every round).

import { h, plural } from './dom.js';
import * as api from './api.js';
import { resultCard, turnsCard } from './result.js';

// audited keeps the last audit per table with the moment it checked: the
// audit replays the whole night, so it is asked again only when a round has
// been settled or the table closed, not on every roll of the live round.
const audited = new Map();

function lastAudit(s) {
  const at = `${s.table.roundsPlayed}/${s.table.status}`;
  const last = audited.get(s.id);
  if (last && last.at === at) return last.answer;
  const answer = api.get(s.path('/audit'), s.token);
  audited.set(s.id, { at, answer });
  answer.catch(() => audited.delete(s.id)); // a failed check is tried again
  return answer;
}

/** historyTab lists the table's rounds, newest first, and the audit. */
export function historyTab(el, s) {
  const data = s.load('history', async () => {
    const [rounds, audit] = await Promise.allSettled([api.getAll(s.path('/rounds?limit=100'), s.token, 'rounds'), lastAudit(s)]);
    const plain = (r) => (r.status === 'fulfilled' ? { value: r.value } : { error: r.reason.message });
    return { rounds: plain(rounds), audit: plain(audit) };
  });
  if (!data) {
    el.append(h('p.card.muted', 'Loading the history…'));
    return;
  }
  el.append(auditCard(data.audit));
  if (data.rounds.error) {
    el.append(h('p.card.error', data.rounds.error));
    return;
  }
  if (!data.rounds.value.length) el.append(h('p.card', 'No rounds yet: they show here as soon as the first one starts.'));
  for (const r of [...data.rounds.value].reverse()) {
    el.append(r.result ? resultCard(s, r) : h('section.card', h('h2', `Round ${r.number}`), h('p', 'In play.')),
      turnsCard(s, r, ''));
  }
}

function auditCard(audit) {
  if (audit.error) return h('p.card.error', `Audit unavailable: ${audit.error}`);
  const a = audit.value;
  const bad = (a.rounds || []).filter((r) => !r.ok);
  return h('section.card.audit', { 'data-testid': 'audit', class: a.ok ? 'ok' : 'bad' },
    h('h2', a.ok ? 'Audit: all checks pass' : 'Audit: PROBLEM'),
    h('p', `${a.events} events, hash chain ${a.chainOk ? 'intact' : 'BROKEN' + (a.firstBreak ? ` at ${a.firstBreak}` : '')}; ` +
      `${plural((a.rounds || []).length, 'round', 'rounds')} replayed${a.balancesOk === false ? '; balances do NOT match' : ''}.`),
    bad.map((r) => h('p.error', `Round ${r.number}: ${r.detail || 'does not replay'}`)));
}
