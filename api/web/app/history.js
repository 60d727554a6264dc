// history.js is the History tab: every round with every roll and its
// result, and the audit (hash chain and replay of every round).

import { h, replace, plural } from './dom.js';
import * as api from './api.js';
import { resultCard, turnsCard } from './result.js';

/** historyTab lists the table's rounds, newest first, and the audit. */
export async function historyTab(el, s) {
  const [rounds, audit] = await Promise.allSettled([api.get(s.path('/rounds'), s.token), api.get(s.path('/audit'), s.token)]);
  replace(el, auditCard(audit));
  if (rounds.status === 'rejected') {
    el.append(h('p.card.error', rounds.reason.message));
    return;
  }
  if (!rounds.value.length) el.append(h('p.card', 'No rounds yet.'));
  for (const r of [...rounds.value].reverse()) {
    el.append(r.result ? resultCard(s, r) : h('section.card', h('h2', `Round ${r.number}`), h('p', 'In play.')),
      turnsCard(s, r, ''));
  }
}

function auditCard(audit) {
  if (audit.status === 'rejected') return h('p.card.error', `Audit unavailable: ${audit.reason.message}`);
  const a = audit.value;
  const bad = (a.rounds || []).filter((r) => !r.ok);
  return h('section.card.audit', { 'data-testid': 'audit', class: a.ok ? 'ok' : 'bad' },
    h('h2', a.ok ? 'Audit: all checks pass' : 'Audit: PROBLEM'),
    h('p', `${a.events} events, hash chain ${a.chainOk ? 'intact' : 'BROKEN' + (a.firstBreak ? ` at ${a.firstBreak}` : '')}; ` +
      `${plural((a.rounds || []).length, 'round', 'rounds')} replayed${a.balancesOk === false ? '; balances do NOT match' : ''}.`),
    bad.map((r) => h('p.error', `Round ${r.number}: ${r.detail || 'does not replay'}`)));
}
