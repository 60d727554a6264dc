// @ts-check
// waiting.js shows the outbox on every screen: how many writes wait to be
// sent and what they are ("2 waiting to send"), and, when the server
// refused a write that waited, what was not recorded, why (the server's
// own words), and which later writes were dropped with it. A write
// another phone recorded first is told as news, not as an error: what
// Tally has and whose phone recorded it. The notice stays until it is read
// and dismissed.

import { h, replace, sentence } from './dom.js';
import * as outbox from './outbox.js';

/** @type {outbox.Conflict[]} */
const conflicts = [];

/**
 * showOutbox keeps el up to date with the outbox, and calls refresh(table,
 * answer) when a waiting write of that table arrived (answer: what the
 * server answered it) or was refused, so the screen shows the table as the
 * server has it.
 * @param {HTMLElement} el
 * @param {(table: number, answer?: unknown) => void} refresh
 */
export function showOutbox(el, refresh) {
  const draw = () => render(el);
  outbox.on('change', draw);
  outbox.on('sent', (s) => refresh(s.table, s.answer));
  outbox.on('conflict', (c) => {
    conflicts.push(c);
    draw();
    refresh(c.table);
  });
  draw();
}

/** @param {HTMLElement} el */
function render(el) {
  const waiting = outbox.waiting();
  const strip = waiting.length ? h('div.waiting', { role: 'status', 'data-testid': 'waiting' },
    h('p.count', `${waiting.length} waiting to send`),
    h('p.what', waiting.map((w) => w.label).join(' · ')),
    h('p.when', 'Kept on this phone; they go, in this order, as soon as Tally answers again.')) : null;
  const notices = conflicts.map((c, i) => h(c.already ? 'div.conflict.already' : 'div.conflict',
    c.already ? { role: 'status', 'data-testid': 'already-sent' } : { role: 'alert', 'data-testid': 'conflict' },
    c.already ? [h('p', h('b', sentence(c.reason))), h('p', `So this phone did not send its own: ${c.refused}.`)]
      : h('p', h('b', `Not recorded: ${c.refused}.`), ` Tally said: ${sentence(c.reason)}`),
    c.dropped.length > 0 && h('p', `Also not sent, since ${c.dropped.length === 1 ? 'it was' : 'they were'} made after it: ${c.dropped.join(' · ')}.`),
    h('p', 'The screen now shows the table as Tally has it.'),
    h('button', { type: 'button', 'data-testid': 'conflict-ok', onclick: () => { conflicts.splice(i, 1); render(el); } }, 'OK')));
  el.hidden = !strip && !notices.length;
  replace(el, strip, notices);
}
