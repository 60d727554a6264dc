// @ts-check
// recovery.js moves the host role to another phone. The host phone shows
// a one-time host recovery code and a QR code of a link carrying it
// (#recover=CODE); the other phone opens the link (or types the code),
// redeems it and becomes the host with a new token, and the first phone is
// told at once that the host role moved. A code works once, for 15 minutes.

import { add, h, replace, clock, fieldValue, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { qrSvg } from './invite.js';
import { appLink } from './address.js';

/** groupRecovery shows a recovery code to read aloud: 12-ABCD-EFGH-JKMN-PQ. */
/** @param {string} code */
export function groupRecovery(code) {
  const [id, secret] = code.split('-');
  return `${id}-${(secret.match(/.{1,4}/g) || []).join('-')}`;
}

/** recoveryLink is the link the other phone opens to become the host, at the app's public address. */
/** @param {string} code */
function recoveryLink(code) {
  return appLink(new URLSearchParams({ recover: code }));
}

/** recoveryCard is the host's way to hand the host role to another phone. @param {import('./session.js').Ready} s */
export function recoveryCard(s) {
  const ui = s.ui.recovery || (s.ui.recovery = {});
  const live = ui.offer && Date.parse(ui.offer.expiresAt) > Date.now();
  const card = h('section.card', { 'data-testid': 'recovery' }, h('h2', 'Move the host role to another phone'));
  if (!live) {
    // add, not Element.append, which would write a missing value as "undefined".
    add(card, h('p.muted.small', 'Phone lost, battery low, or someone else hosts next? Show a one-time code here and open it on the other phone: that phone becomes the host, and this one stops being the host at once.'),
      ui.offer && h('p.muted', 'The last code has expired.'),
      h('button.ghost', { type: 'button', 'data-testid': 'recovery-show', disabled: !!ui.busy, onclick: () => offer(s, ui) },
        ui.busy ? 'Making a code…' : 'Show a host recovery code'),
      ui.error && h('p.error', { role: 'alert' }, ui.error));
    return card;
  }
  const shown = /** @type {import('./api.js').Schemas['RecoveryOffer']} */ (ui.offer); // live: there is one
  const until = clock(shown.expiresAt);
  const link = recoveryLink(shown.code);
  card.append(h('p.code', { 'data-testid': 'recovery-code' }, groupRecovery(shown.code)),
    h('div.qr', { 'data-testid': 'recovery-qr' }, qrSvg(link)),
    h('p', `Works once, until ${until}. Scan it with the other phone's camera, or type it there under Join with a code, then “Taking over as host?”.`),
    h('p.muted.small', 'Whoever opens it becomes the host: show it only to the phone taking over.'),
    h('button', { type: 'button', 'data-testid': 'recovery-hide', onclick: () => { ui.offer = null; s.render(true); } }, 'Hide the code'));
  return card;
}

// offer asks the server for a new code; the key is kept across retries.
/** @param {import('./session.js').Ready} s @param {import('./page.js').RecoveryCard} ui */
async function offer(s, ui) {
  if (!ui.request) ui.request = api.offerRecovery(s);
  ui.busy = true;
  ui.error = '';
  s.render(true);
  try {
    ui.offer = /** @type {api.Schemas['RecoveryOffer']} */ (await api.send(ui.request)); // offerRecovery's answer
    ui.request = null;
  } catch (err) {
    ui.error = 'No code: ' + message(err);
    if (err instanceof api.Problem) ui.request = null;
  }
  ui.busy = false;
  s.render(true);
}

/** recoverScreen redeems a host recovery code on this phone (#recover=CODE). */
/** @param {HTMLElement} main @param {string | null} code */
export function recoverScreen(main, code) {
  /** @type {{ code: string, request?: api.Write<api.Schemas['RecoverRequest'], api.Recovered> | null }} */
  const form = { code: code || '' };
  const error = h('p.error', { hidden: true, 'data-testid': 'recover-error' });
  /** @param {MouseEvent} e */
  const go = async (e) => {
    const typed = form.code.trim();
    if (!typed) {
      error.hidden = false;
      error.textContent = 'Type the code the host phone shows.';
      return;
    }
    if (!form.request || form.request.body.code !== typed) form.request = api.recoverHost(typed);
    const button = /** @type {HTMLButtonElement} */ (e.currentTarget);
    button.disabled = true;
    try {
      const r = await api.send(form.request);
      store.save({ id: r.table.id, name: r.table.name, role: 'host', token: r.hostToken, code: r.table.joinCode,
        playerId: 0, playerName: '' });
      location.hash = `#t=${r.table.id}`;
    } catch (err) {
      error.hidden = false;
      error.textContent = message(err);
      button.disabled = false;
      if (err instanceof api.Problem) form.request = null;
    }
  };
  replace(main,
    h('header.top', h('div.title', h('a.home', { href: '#', 'aria-label': 'home' }, '⌂'), h('h1', 'Become the host'))),
    h('section.card', { 'data-testid': 'recover' },
      h('p', 'The host phone showed a host recovery code. Using it makes this phone the host of that table; the other phone stops being the host at once.'),
      h('label.field', 'Host recovery code', h('input.code', { type: 'text', value: form.code, maxlength: 64, autocapitalize: 'characters',
        spellcheck: 'false', autocomplete: 'off', 'aria-label': 'host recovery code', placeholder: '12-ABCD-EFGH-JKMN-PQ',
        oninput: (e) => { form.code = fieldValue(e); } })),
      h('button.primary', { type: 'button', 'data-testid': 'recover-go', onclick: go }, 'Become the host'),
      error,
      h('a.button.ghost', { href: '#' }, 'Cancel')));
}
