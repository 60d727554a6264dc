// @ts-check
// invite.js is the Invite tab: the join code in big letters and a QR code of
// the join link, which lists the seats nobody has claimed yet so a new phone
// can claim one with a single tap; and the seats, where the host seats a
// latecomer and a player leaves (see seats.js); and, on the host phone,
// handing the host role to another phone (recovery.js).

import { h, svg } from './dom.js';
import { seatCard, seatsCard } from './seats.js';
import { recoveryCard } from './recovery.js';
import { appAddress, appLink } from './address.js';
import qrcode from './vendor/qrcode.mjs';

/**
 * plainCode is a join code as typed, without case, spaces or separators:
 * "abcd-efgh jkmn pq" is ABCDEFGHJKMNPQ. The server takes it either way.
 */
/** @param {string | null | undefined} typed */
export function plainCode(typed) {
  return (typed || '').toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** isCodeLength says whether a plain code is as long as one: 14 characters, or 6 for a table made before codes grew. */
/** @param {string} plain */
export function isCodeLength(plain) {
  return plain.length === 14 || plain.length === 6;
}

/** groupCode shows a join code in groups of four, to read aloud: ABCD-EFGH-JKMN-PQ. */
/** @param {string} code */
export function groupCode(code) {
  const plain = plainCode(code);
  return plain.length <= 6 ? plain : (plain.match(/.{1,4}/g) || []).join('-');
}

/**
 * joinLink is the link other phones open to join this table (or crew), at the app's public address.
 * @param {{ table: import('./api.js').Table, saved: { code?: string } }} s
 */
export function joinLink(s) {
  const q = new URLSearchParams({ join: s.table.joinCode || s.saved.code || '' });
  for (const p of s.table.players) if (!p.claimed && !p.leftAt) q.append('seat', p.name);
  return appLink(q);
}

/**
 * inviteTab shows the code, the QR code and the seats, with seating and leaving.
 * @param {HTMLElement} el
 * @param {import('./session.js').Ready} s
 */
export function inviteTab(el, s) {
  const closed = s.table.status === 'closed';
  const code = s.table.joinCode || s.saved.code;
  if (closed) {
    el.append(h('section.card', h('h2', 'This table is closed'), h('p', 'Nobody can join it any more. The final balances are on the Money tab.'),
      h('a.button', { href: `#t=${s.id}&tab=money` }, 'See the money')));
  } else if (!code) {
    el.append(h('section.card', h('p', 'This phone has no join code for the table.')));
  } else {
    const link = joinLink(s);
    el.append(h('section.card.invite',
      h('h2', 'Join this table'),
      h('p.code', { 'data-testid': 'join-code' }, groupCode(code)),
      h('div.qr', { 'data-testid': 'qr' }, qrSvg(link)),
      h('p.muted.small', 'Scan with the phone camera, or open Tally at ', h('b', { 'data-testid': 'app-address' }, appAddress()), ' and type the code.'),
      navigator.share && h('button.ghost', { type: 'button', onclick: () => navigator.share({ title: 'Tally', url: link }).catch(() => {}) }, 'Share the link')));
  }
  if (s.role === 'host' && !closed) el.append(seatCard(s));
  el.append(seatsCard(s, closed));
  if (s.role === 'host') el.append(recoveryCard(s));
}

/**
 * qrSvg draws text as a QR code: black modules on white with the quiet zone
 * the standard asks for, so phone cameras read it even on a dark screen.
 */
/** @param {string} text */
export function qrSvg(text) {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let d = '';
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) if (qr.isDark(y, x)) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  }
  const size = n + 2 * quiet;
  return svg('svg', { viewBox: `0 0 ${size} ${size}`, role: 'img', 'aria-label': `QR code for ${text}`, 'shape-rendering': 'crispEdges' },
    svg('rect', { width: size, height: size, fill: '#fff' }), svg('path', { d, fill: '#000' }));
}
