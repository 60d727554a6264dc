// @ts-check
// nights.js lists a crew's nights on its page: tonight's open table, which
// a member joins with one tap ("Join tonight": the night's join code and
// the member's own name claim their seat, and the night opens on this
// phone); the closed ones, each added to the crew's balances when it closed
// (or with "Add to the crew" if that did not happen); and starting
// tonight's table. It also holds the card a closed night's Money tab shows
// instead of settling up: its money went to the crew.

import { h, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';

/** @typedef {import('./crew.js').ReadyCrew} ReadyCrew */
/** @typedef {import('./page.js').Card} Card */
/** @typedef {api.Schemas['Night']} Night */

/** nightsCard lists the crew's nights, newest first, with starting tonight's table. @param {ReadyCrew} c @param {Night[]} nights */
export function nightsCard(c, nights) {
  const ui = c.ui.nights || (c.ui.nights = {});
  const list = [...nights].sort((a, b) => b.table - a.table);
  return h('section.card', { 'data-testid': 'nights' }, h('h2', 'Nights'),
    c.role !== 'audit' && h('a.button.primary', { href: `#c=${c.id}&v=night`, 'data-testid': 'start-night' }, 'Start tonight’s table'),
    !list.length && h('p.muted', 'No nights yet. Start tonight’s table: each night’s results add up here when it closes.'),
    list.map((n) => nightRow(c, ui, n)),
    ui.error && h('p.error', { role: 'alert' }, ui.error));
}

// nightRow is one night: open (join or open it) or closed (rolled, or a
// button that rolls it), with its date.
/** @param {ReadyCrew} c @param {import('./page.js').NightsCard} ui @param {Night} n */
function nightRow(c, ui, n) {
  const held = store.table(n.table);
  const when = day(n.closedAt || n.createdAt);
  /** @param {string} note @param {...import('./dom.js').Child} actions */
  const row = (note, ...actions) => h('div.night', { 'data-testid': 'night', dataset: { night: n.table, status: n.status } },
    h('p', h('b', n.name), h('span.muted', ` · ${when}`)), h('p.muted.small', note), actions);
  if (n.status === 'open') {
    const mine = held && held.token;
    return row('Playing now: its results join the crew when it closes.',
      mine ? h('a.button.primary', { href: `#t=${n.table}`, 'data-testid': 'open-night' }, 'Open tonight’s table')
        : c.role === 'player' && n.joinCode && h('button.primary', { type: 'button', 'data-testid': 'join-night', disabled: ui.busy === n.table,
          onclick: () => joinNight(c, ui, n) }, ui.busy === n.table ? 'Joining…' : 'Join tonight'));
  }
  return row(n.rolled ? 'Added to the crew’s balances.' : 'Closed, but not yet in the crew’s balances.',
    !n.rolled && c.role !== 'audit' && h('button.primary', { type: 'button', 'data-testid': 'roll-night', disabled: ui.busy === n.table,
      onclick: () => rollNight(c, ui, n) }, ui.busy === n.table ? 'Adding…' : 'Add to the crew'),
    held && held.token && h('a.button.ghost', { href: `#t=${n.table}&tab=money`, 'data-testid': 'night-results' }, 'Results and sharing'));
}

// joinNight claims this member's seat at an open night (by the member's
// name, which is the seat's) and opens the night's table on this phone.
/** @param {ReadyCrew} c @param {import('./page.js').NightsCard} ui @param {Night} n */
async function joinNight(c, ui, n) {
  const body = { code: /** @type {string} */ (n.joinCode), name: c.saved.playerName || c.name(c.me) }; // offered only with a code
  /** @type {api.Write<api.Schemas['JoinRequest'], api.Joined>} */
  const req = ui.join && ui.join.body.code === body.code ? ui.join : (ui.join = api.join(body));
  await busy(c, ui, n, async () => {
    const j = await api.send(req);
    store.save({ id: j.table.id, name: j.table.name, role: 'player', token: j.playerToken, playerId: j.player.id,
      playerName: j.player.name, code: n.joinCode, crew: c.id });
    ui.join = null;
    location.hash = `#t=${j.table.id}`;
  });
}

// rollNight adds a closed night's balances to the crew (POST roll), for a
// night whose closing did not do it; doing it twice changes nothing.
/** @param {ReadyCrew} c @param {import('./page.js').NightsCard} ui @param {Night} n */
async function rollNight(c, ui, n) {
  await busy(c, ui, n, async () => {
    await api.send(api.rollNight(c, n.table));
    await c.reloadMoney();
  });
}

// busy runs one night's write, showing it on its button and any refusal
// under the list.
/** @param {ReadyCrew} c @param {import('./page.js').NightsCard} ui @param {Night} n @param {() => Promise<void>} work */
async function busy(c, ui, n, work) {
  ui.busy = n.table;
  ui.error = '';
  c.render(true);
  try {
    await work();
  } catch (err) {
    ui.error = `${n.name}: ${message(err)}`;
  }
  ui.busy = 0;
  c.render(true);
}

/** day is a date as a bar says it: "Fri 14 Mar". @param {string} iso */
export function day(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' });
}

/**
 * crewNightCard is a crew night's Money tab note: its money other than the
 * game's is the crew's, and once closed its balances went to the crew,
 * where who owes whom is settled across nights.
 * @param {import('./session.js').Ready} s
 * @param {boolean} closed
 */
export function crewNightCard(s, closed) {
  const crew = store.table(Number(s.table.crew));
  return h('section.card', { 'data-testid': 'crew-night' }, h('h2', 'Part of the crew'),
    h('p', closed ? 'This night is closed and its results went to the crew’s running balances: settle up there, across nights.'
      : 'This is one of the crew’s nights: its results go to the crew’s running balances when it closes. Buy-ins, cash-outs and payments are recorded at the crew.'),
    crew && crew.kind === 'crew' ? h('a.button.primary', { href: `#c=${crew.id}`, 'data-testid': 'to-crew' }, `Open ${crew.name || 'the crew'}`)
      : h('p.muted.small', 'This phone is not in the crew: ask a member for its code.'));
}
