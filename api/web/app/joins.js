// @ts-check
// joins.js tells the host phone, live and on every tab, of each phone that
// joins with the code ("Dan joined with the code"), with a one-tap "Free
// this seat" for a join the host did not expect: anyone with the code can
// take a seat, so the host must know. The notice floats above the tab bar,
// so that nothing moves under a thumb when it arrives. Which joins the host
// has seen is kept on this phone, by seat and the time it was claimed, so a
// seat freed and claimed again is told again.

import { h } from './dom.js';
import { release } from './seats.js';

const KEY = 'tally.joins-seen';

/**
 * Seen are the joins the host saw, by table id: when each player's seat
 * was claimed, by player id.
 * @typedef {Record<string, Record<string, string | undefined>>} Seen
 */

/** @returns {Seen} */
function seenAll() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}');
  } catch {
    return {};
  }
}

/** @param {Seen} all */
function keep(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or off: the notices come back on the next reload.
  }
}

/**
 * joinNotices is the host's card of joins not yet seen, or null. The first
 * time this phone hosts the table, the claims already made count as seen:
 * a phone that just became the host is told only of joins from then on.
 * @param {import('./session.js').Ready} s
 */
export function joinNotices(s) {
  if (s.role !== 'host' || s.table.status === 'closed') return null;
  const all = seenAll();
  // The host's own seat is this phone's: nobody joined with the code.
  const claims = s.table.players.filter((p) => p.claimedAt && !p.leftAt && !p.host);
  if (!all[s.id]) {
    all[s.id] = Object.fromEntries(claims.map((p) => [p.id, p.claimedAt]));
    keep(all);
  }
  const seen = all[s.id];
  const ui = s.ui.joins || (s.ui.joins = {});
  const fresh = claims.filter((p) => seen[p.id] !== p.claimedAt);
  if (!fresh.length && !ui.note && !ui.error) return null;
  /** @param {import('./api.js').Player} p */
  const ack = (p) => {
    const now = seenAll();
    now[s.id] = { ...(now[s.id] || {}), [p.id]: p.claimedAt };
    keep(now);
  };
  return h('section.card.notices', { 'data-testid': 'join-notices', role: 'status' },
    fresh.map((p) => h('div.notice', { dataset: { name: p.name } },
      h('p', h('b', p.name), ' joined with the code.'),
      h('div.actions',
        h('button', { type: 'button', 'data-testid': 'notice-ok', disabled: !!ui.busy,
          onclick: () => { ack(p); ui.note = ''; s.render(true); } }, 'OK'),
        h('button.danger', { type: 'button', 'data-testid': 'notice-free', disabled: !!ui.busy,
          onclick: () => release(s, ui, p, () => { ack(p); ui.note = `${p.name}’s seat is free again; that phone has been told.`; }) },
        ui.busy === p.id ? 'Freeing…' : 'Free this seat')))),
    ui.note && h('div.notice', h('p.ok', { 'data-testid': 'notice-done' }, ui.note),
      h('button', { type: 'button', onclick: () => { ui.note = ''; s.render(true); } }, 'OK')),
    ui.error && h('p.error', { role: 'alert' }, ui.error));
}
