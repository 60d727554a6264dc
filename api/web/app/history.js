// @ts-check
// history.js is the History tab: the audit (with its alarm when the
// history fails a check), the night receipt, who joined and what money was
// recorded by hand (tablelog.js), and every round with every roll and its
// result.

import { h, add, message } from './dom.js';
import * as api from './api.js';
import { lastAudit, auditCards, receiptCard } from './audit.js';
import { resultCard, turnsCard } from './result.js';
import { gameHistory } from './royale.js';
import { correctionsCard, reversedCard } from './corrections.js';
import { loadTableLog, tableLogCard } from './tablelog.js';

/**
 * historyTab shows the audit, the receipt and the rounds, newest first.
 * @param {HTMLElement} el
 * @param {import('./session.js').Ready} s
 */
export function historyTab(el, s) {
  if (s.table.royale) {
    gameHistory(el, s);
    return;
  }
  const data = s.cached('history', async () => {
    const [rounds, audit, log] = await Promise.allSettled([api.rounds(s),
      lastAudit(s), loadTableLog(s)]);
    /** @template T @param {PromiseSettledResult<T>} r @returns {import('./tablelog.js').Loaded<T>} */
    const plain = (r) => (r.status === 'fulfilled' ? { value: r.value } : { error: message(r.reason) });
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
  const rounds = data.rounds.value || []; // there when there is no error
  if (!rounds.length) el.append(h('p.card', 'No rounds yet: they show here as soon as the first one starts.'));
  for (const r of [...rounds].reverse()) {
    add(el, r.status === 'reversed' ? reversedCard(s, r) : r.result ? resultCard(s, r)
      : h('section.card', h('h2', `Round ${r.number}`), h('p', 'In play.')), turnsCard(s, r, ''));
  }
}
