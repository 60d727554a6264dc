// @ts-check
// history.js is the History tab: the audit (with its alarm when the
// history fails a check), the night receipt, who joined and what money was
// recorded by hand (tablelog.js), and every round with every roll and its
// result.

import { h, add } from './dom.js';
import * as api from './api.js';
import { lastAudit, auditCards, receiptCard } from './audit.js';
import { resultCard, turnsCard } from './result.js';
import { gameHistory } from './royale.js';
import { correctionsCard, reversedCard } from './corrections.js';
import { loadTableLog, tableLogCard } from './tablelog.js';

/** historyTab shows the audit, the receipt and the rounds, newest first. */
export function historyTab(el, s) {
  if (s.table.royale) {
    gameHistory(el, s);
    return;
  }
  const data = s.cached('history', async () => {
    const [rounds, audit, log] = await Promise.allSettled([api.rounds(s),
      lastAudit(s), loadTableLog(s)]);
    const plain = (r) => (r.status === 'fulfilled' ? { value: r.value } : { error: r.reason.message });
    return { rounds: plain(rounds), audit: plain(audit), log: plain(log) };
  });
  if (!data) {
    el.append(h('p.card.muted', 'Loading the history…'));
    return;
  }
  add(el, ...auditCards(data.audit), receiptCard(s), correctionsCard(s, data.log.value), tableLogCard(s, data.log));
  if (data.rounds.error) {
    el.append(h('p.card.error', data.rounds.error));
    return;
  }
  if (!data.rounds.value.length) el.append(h('p.card', 'No rounds yet: they show here as soon as the first one starts.'));
  for (const r of [...data.rounds.value].reverse()) {
    el.append(r.status === 'reversed' ? reversedCard(s, r) : r.result ? resultCard(s, r)
      : h('section.card', h('h2', `Round ${r.number}`), h('p', 'In play.')), turnsCard(s, r, ''));
  }
}
