// @ts-check
// insecure.js says, once, in plain words, when the app was opened at an
// address that is not secure (plain http from another machine, such as
// http://192.168.1.20:8080): the browser then allows no service worker, no
// screen wake lock and no camera, so Tally can't be installed or reopen
// offline, and the phone should use the https address instead. Live play and
// the outbox still work while the page stays open. The notice shows on
// every phone, the host's and the players', until it is dismissed; the
// dismissal is kept in localStorage, which is per origin, so it is
// remembered for this address only. localhost is a secure context: no
// notice there.

import { h, replace } from './dom.js';

const KEY = 'tally.insecureNoticeDismissed';

// text is what the notice says, in the words a player needs.
const text = 'This address isn\'t secure, so Tally can\'t be installed, keep working offline or read dice with the camera on this phone. Ask the host for the https address.';

/** showInsecure fills el with the notice when the page is not in a secure context and the notice was not dismissed here. */
/** @param {HTMLElement} el */
export function showInsecure(el) {
  if (window.isSecureContext || dismissed()) return;
  replace(el, h('p', text),
    h('button', { type: 'button', 'data-testid': 'insecure-ok', onclick: () => dismiss(el) }, 'OK, got it'));
  el.hidden = false;
}

// dismissed says whether the notice was dismissed on this address before.
function dismissed() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

// dismiss hides the notice and remembers it for this address.
/** @param {HTMLElement} el */
function dismiss(el) {
  try {
    localStorage.setItem(KEY, '1');
  } catch {
    // Storage refused (private mode): it is gone until the next visit.
  }
  el.hidden = true;
  el.replaceChildren();
}
