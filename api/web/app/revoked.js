// @ts-check
// revoked.js is what a phone shows when its token stopped working because
// of something done at the table, as the server says it (a problem type):
// the host freed the seat this phone held, or the host role moved to
// another phone. It says so in plain words and offers the way back: join
// again with the code.

import { h, replace } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';

const FREED = '/problems/seat-freed';
const MOVED = '/problems/host-moved';

/** isRevoked says whether err is the server refusing this phone's token for good, with a reason. @param {unknown} err */
export function isRevoked(err) {
  return err instanceof api.Problem && (err.type === FREED || err.type === MOVED);
}

/**
 * revokedScreen tells the phone why its token stopped working and how to rejoin.
 * @param {HTMLElement} main
 * @param {store.Entry} saved
 * @param {unknown} err a Problem (isRevoked)
 */
export function revokedScreen(main, saved, err) {
  const type = err instanceof api.Problem ? err.type : '';
  const table = saved.name ? `“${saved.name}”` : `table ${saved.id}`;
  const join = h('a.button.primary', { href: `#join=${encodeURIComponent(saved.code || '')}`, 'data-testid': 'rejoin' },
    type === FREED ? 'Join again with the code' : 'Join as a player');
  const forget = h('button', { type: 'button', 'data-testid': 'forget',
    onclick: () => { store.forget(saved.id); location.hash = '#'; } }, 'Remove it from this phone');
  const home = h('a.button.ghost', { href: '#' }, 'Home');
  if (type === FREED) {
    const who = saved.playerName ? ` as ${saved.playerName}` : '';
    replace(main, h('section.card', { 'data-testid': 'revoked', dataset: { why: 'seat-freed' } },
      h('h1', 'The host freed your seat'),
      h('p', `This phone no longer plays${who} at ${table}.`),
      h('p.muted', 'If that was a mistake, join again with the code: tap your name if your seat is still open, or pick another name. The host sees everyone who joins.'),
      join, forget, home));
    return;
  }
  replace(main, h('section.card', { 'data-testid': 'revoked', dataset: { why: 'host-moved' } },
    h('h1', 'The host role moved to another phone'),
    h('p', `Another phone redeemed a host recovery code for ${table}: it is the host now, and this phone no longer is.`),
    h('p.muted', 'If you did not hand it over, ask the new host phone for a recovery code to take it back. To play on, join with the code.'),
    join, forget, home));
}
