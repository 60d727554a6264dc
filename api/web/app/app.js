// @ts-check
// app.js is the entry point: it routes on the URL's hash and runs the open
// table's session (its data, its live stream and the tab on screen).
//
//   #              home: saved tables, start or join
//   #new           start a table
//   #join=CODE     join (the QR code's link; &seat=Name lists open seats)
//   #recover=CODE  become the host with a host recovery code (its QR link)
//   #t=ID&tab=...  a table: play, money, history or invite
//   #newcrew       start a crew
//   #c=ID&v=...    a crew: its page, tonight's table form (v=night) or its stats

import { h, replace, typing } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { homeScreen, startScreen } from './home.js';
import { joinScreen } from './join.js';
import { recoverScreen } from './recovery.js';
import { installApp } from './pwa.js';
import { showInsecure } from './insecure.js';
import * as outbox from './outbox.js';
import { showOutbox } from './waiting.js';
import { openCrew, closeCrew } from './crew.js';
import { crewStartScreen } from './crewstart.js';
import { setBanner } from './banner.js';
import { Session, TABS } from './session.js';

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
api.onNetwork((ok, note) => setBanner('net', ok ? null : note));
window.addEventListener('offline', () => setBanner('net', 'Offline — waiting for the wifi…'));
window.addEventListener('online', () => setBanner('net', null));
// A write that waited and then arrived, or was refused, changed the table:
// the screen shows it as the server has it.
showOutbox(/** @type {HTMLElement} */ (document.getElementById('outbox')), (id, answer) => {
  if (session && session.id === id) session.caughtUp(answer);
});
// The Play tab says what waits to be sent: it is redrawn when that changes.
outbox.on('change', () => {
  if (session && session.table) session.render();
});
installApp();
showInsecure(/** @type {HTMLElement} */ (document.getElementById('insecure')));

// A tab left stale while a field had the focus is redrawn once the thumb
// has moved on; the pause lets a tap on a button land first.
main.addEventListener('focusout', () => setTimeout(() => {
  const body = main.querySelector('.tabbody');
  if (session && session.stale && !(body && typing(body))) session.render();
}, 300));

/** @type {Session | null} */
let session = null;

function closeSession() {
  if (session) session.close();
  session = null;
}

/** @param {number} id @param {string | null} tab */
function openTable(id, tab) {
  const saved = store.table(id);
  if (!saved) {
    closeSession();
    replace(main, h('section.card', h('h1', `Table ${id}`),
      h('p', 'This phone has not joined this table. Ask for the join code.'),
      h('a.button.primary', { href: '#join=' }, 'Join a table'), h('a.button', { href: '#' }, 'Home')));
    return;
  }
  if (!session || session.id !== id) {
    closeSession();
    session = new Session(saved);
    store.save({ id });
  }
  const next = tab && TABS[tab] ? tab : 'play';
  // A "recorded" note belongs to the moment it was made: it does not wait
  // on another tab to be read hours later.
  if (next !== session.tab) for (const ui of Object.values(session.ui)) if (ui && typeof ui === 'object' && 'done' in ui && ui.done) ui.done = '';
  session.tab = next;
  if (session.table) session.render(true);
  session.refresh();
}

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  window.scrollTo(0, 0);
  if (params.has('t')) {
    closeCrew();
    return openTable(Number(params.get('t')), params.get('tab'));
  }
  closeSession();
  if (params.has('c')) return openCrew(main, Number(params.get('c')), params.get('v') || '');
  closeCrew();
  if (params.has('newcrew')) return crewStartScreen(main);
  if (params.has('join')) return joinScreen(main, params.get('join'), params.getAll('seat'));
  if (params.has('recover')) return recoverScreen(main, params.get('recover'));
  if (params.has('new')) return startScreen(main);
  return homeScreen(main);
}

window.addEventListener('hashchange', route);
route();
