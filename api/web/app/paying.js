// @ts-check
// paying.js is settle-up with real money (docs/payments.md): on the payer's
// phone "Pay Ann €2.00" with the ways Ann likes to be paid (a link that
// opens the app, the EPC QR code for a bank app to scan) and "I've sent
// it"; on the payee's phone (and the host's) "Bob says he sent you €2.00.
// Received?", whose yes records the payment and whose no clears the claim
// with a reason. The claim goes through the outbox, so it survives a
// reload and a phone offline; the server keeps it, so it survives both
// phones too.

import { h, add, money } from './dom.js';
import * as api from './api.js';
import * as outbox from './outbox.js';

/** @typedef {import('./page.js').Page} Page */
/** @typedef {import('./page.js').Card} Card */
/** @typedef {import('./api.js').SettleUp} SettleUp */
/** @typedef {import('./api.js').Transfer} Transfer */
/** @typedef {import('./api.js').Claim} Claim */
/** @typedef {import('./api.js').PayOption} PayOption */

/** @type {Record<import('./api.js').PayMethod, string>} */
export const METHODS = { paypal: 'PayPal', venmo: 'Venmo', cashapp: 'Cash App', revolut: 'Revolut', monzo: 'Monzo', upi: 'UPI', sepa: 'Bank transfer' };

/**
 * worth is an amount as people pay it: "€2.00" when units have a value,
 * else "8 chips".
 * @param {{ money?: { text: string } }} t @param {number} amount @param {string} cur
 */
export function worth(t, amount, cur) {
  return t.money ? t.money.text : money(amount, cur);
}

/** @param {Page} s @returns {import('./page.js').SettleCard} */
function state(s) {
  return s.ui.settle || (s.ui.settle = {});
}

/**
 * payBox is what the payer's phone shows under "You owe Ann": the payee's
 * ways to be paid and "I've sent it", or where the claim stands.
 * @param {Page} s @param {SettleUp} plan @param {Transfer} t
 */
export function payBox(s, plan, t) {
  const cur = plan.currency;
  const ui = state(s);
  const payee = s.name(t.to);
  const box = h('div.pay', { 'data-testid': 'pay', dataset: { to: String(t.to) } },
    h('p.big', `Pay ${payee} ${worth(t, t.amount, cur)}`),
    t.money && h('p.muted.small', `${money(t.amount, cur)} = ${t.money.text}`));
  if (!t.methods.length) box.append(h('p.muted.small', `${payee} has not said how they like to be paid: hand it over, or ask.`));
  for (const o of t.methods) add(box, method(s, t, o, cur));
  const mine = plan.claims.filter((c) => c.from === s.me && c.to === t.to);
  const open = mine.filter((c) => c.status === 'sent');
  const queued = outbox.waiting(s.id).filter((w) => w.path === api.claimsPath(s) && /** @type {{ to?: number }} */ (w.body || {}).to === t.to);
  const claimed = open.reduce((n, c) => n + c.amount, 0);
  for (const c of open) {
    box.append(h('p.ok', { role: 'status', 'data-testid': 'claim-waiting' },
      `You said you sent ${payee} ${worth(c, c.amount, cur)}. Waiting for ${payee} to confirm.`));
  }
  if (queued.length) {
    box.append(h('p.muted', { role: 'status', 'data-testid': 'claim-queued' },
      '“I’ve sent it” waits on this phone: it goes as soon as Tally answers again.'));
  }
  const refused = mine.filter((c) => c.status === 'refused').pop();
  if (refused && !open.length) {
    box.append(h('p.error', { 'data-testid': 'claim-refused' },
      `${payee} says your ${worth(refused, refused.amount, cur)} did not arrive: “${refused.reason}”.`));
  }
  if (claimed < t.amount && !queued.length) {
    const amount = t.amount - claimed;
    box.append(h('button.primary', { type: 'button', 'data-testid': 'sent-it', disabled: !!ui.busy,
      onclick: () => sendClaim(s, ui, t.to, amount) }, ui.busy ? 'Sending…' : 'I’ve sent it'));
  }
  if (ui.error) box.append(h('p.error', { role: 'alert' }, ui.error));
  return box;
}

/**
 * method is one way to pay: a link that opens the app (with the amount and
 * note when the provider documents how), or a bank transfer's details and
 * its EPC QR code.
 * @param {Page} s @param {Transfer} t @param {PayOption} o @param {string} cur
 */
function method(s, t, o, cur) {
  const label = METHODS[o.method];
  const amount = worth(t, t.amount, cur);
  if (o.method !== 'sepa') {
    return h('div.method', { dataset: { method: o.method } },
      h('a.button', { href: o.link, target: '_blank', rel: 'noopener noreferrer', 'data-testid': 'pay-link',
        dataset: { method: o.method } }, `${label}: ${o.handle}`),
      h('p.muted.small', o.withAmount ? `${label} opens with ${amount} and the note “${t.note}” filled in.`
        : `${label} opens on ${s.name(t.to)}’s page: type ${amount} and the note “${t.note}”.`));
  }
  const ui = state(s);
  const qr = ui.qr && ui.qr.to === t.to && ui.qr.amount === t.amount ? ui.qr : null;
  return h('div.method', { dataset: { method: 'sepa' } },
    h('p', h('b', label), ` to ${o.name}`),
    h('p.small', 'IBAN ', h('span.iban', o.handle), o.bic ? ` · BIC ${o.bic}` : ''),
    h('p.muted.small', `Amount ${amount}; reference “${t.note}”.`),
    o.epcQr && (qr && qr.image
      ? qrCanvas(qr.image, `QR code for your banking app: a transfer of ${amount} to ${o.name}`)
      : h('button', { type: 'button', 'data-testid': 'show-qr', onclick: () => showQR(s, t) },
        qr && qr.busy ? 'Loading…' : 'Show the QR code for my bank app')),
    !o.epcQr && h('p.muted.small', 'A bank app’s QR code is for transfers in euros: type these details in your bank app.'),
    qr && qr.error && h('p.error', qr.error));
}

/**
 * qrCanvas draws the QR code's image on a canvas: the app's rules load
 * images from its own address only (img-src 'self'), and a canvas draws a
 * decoded image without loading anything.
 * @param {ImageBitmap} image @param {string} label
 */
function qrCanvas(image, label) {
  const c = /** @type {HTMLCanvasElement} */ (h('canvas.epc', { width: image.width, height: image.height, role: 'img',
    'aria-label': label, 'data-testid': 'epc-qr' }));
  const g = c.getContext('2d');
  if (g) g.drawImage(image, 0, 0);
  return c;
}

/** showQR reads the transfer's EPC QR code and shows it. @param {Page} s @param {Transfer} t */
async function showQR(s, t) {
  const ui = state(s);
  ui.qr = { to: t.to, amount: t.amount, busy: true };
  s.render(true);
  try {
    const file = await api.epcQR(s, t.to, t.amount);
    ui.qr = { to: t.to, amount: t.amount, image: await createImageBitmap(file.blob) };
  } catch (err) {
    ui.qr = { to: t.to, amount: t.amount, error: err instanceof Error ? err.message : String(err) };
  }
  s.render(true);
}

/** sendClaim says "I've sent it" through the outbox. @param {Page} s @param {Card} ui @param {number} to @param {number} amount */
async function sendClaim(s, ui, to, amount) {
  Object.assign(ui, { busy: true, error: '' });
  s.render(true);
  try {
    await outbox.submit(s.id, api.sendClaim(s, { to, amount }), `I’ve sent ${s.name(to)} ${money(amount, s.table ? s.table.currency : '')}`);
    await s.reloadMoney();
  } catch (err) {
    if (!(err instanceof outbox.Queued)) ui.error = 'Not sent: ' + (err instanceof Error ? err.message : String(err));
  }
  ui.busy = false;
  s.render(true);
}

/**
 * claimsToAnswer are the claims waiting for this phone's answer: the
 * payee's own, and on the host's phone every one.
 * @param {Page} s @param {SettleUp} plan
 */
export function claimsToAnswer(s, plan) {
  return plan.claims.filter((c) => c.status === 'sent' && (c.to === s.me || s.role === 'host'));
}

/**
 * answerBox asks the payee "Bob says he sent you €2.00. Received?"; the
 * host is asked on the payee's behalf.
 * @param {Page} s @param {SettleUp} plan @param {Claim} c
 */
export function answerBox(s, plan, c) {
  const ui = state(s).answers || (state(s).answers = {});
  const st = ui[c.id] || (ui[c.id] = {});
  const amount = worth(c, c.amount, plan.currency);
  const mine = c.to === s.me;
  const box = h('div.claim', { 'data-testid': 'claim', dataset: { claim: String(c.id) } },
    h('p.big', mine ? `${c.fromName} says they sent you ${amount}. Received?` : `${c.fromName} says they sent ${c.toName} ${amount}. Received?`));
  if (st.refusing) {
    box.append(h('label.field', 'Why not? (the payer sees this)', h('input', { type: 'text', name: 'refusal', maxlength: 200, value: st.reason || '',
      oninput: (/** @type {Event} */ e) => { st.reason = /** @type {HTMLInputElement} */ (e.target).value; } })),
    h('div.actions',
      h('button.primary', { type: 'button', 'data-testid': 'claim-refuse-send', disabled: !!st.busy, onclick: () => answer(s, st, c, false) }, 'Send the no'),
      h('button', { type: 'button', disabled: !!st.busy, onclick: () => { st.refusing = false; s.render(true); } }, 'Cancel')));
  } else {
    box.append(h('div.actions',
      h('button.primary', { type: 'button', 'data-testid': 'claim-yes', disabled: !!st.busy, onclick: () => answer(s, st, c, true) },
        st.busy ? 'Saving…' : `Yes, ${amount} arrived`),
      h('button', { type: 'button', 'data-testid': 'claim-no', disabled: !!st.busy, onclick: () => { st.refusing = true; s.render(true); } }, 'No, not received')));
  }
  if (st.error) box.append(h('p.error', { role: 'alert' }, st.error));
  return box;
}

/** answer sends the yes or the no through the outbox. @param {Page} s @param {import('./page.js').AnswerCard} st @param {Claim} c @param {boolean} yes */
async function answer(s, st, c, yes) {
  const reason = String(st.reason || '').trim();
  if (!yes && !reason) {
    st.error = 'Say why, in a few words: the payer sees it.';
    s.render(true);
    return;
  }
  Object.assign(st, { busy: true, error: '' });
  s.render(true);
  const req = yes ? api.confirmClaim(s, c.id) : api.refuseClaim(s, c.id, { reason });
  try {
    await outbox.submit(s.id, req, yes ? `${c.fromName}’s payment arrived` : `${c.fromName}’s payment did not arrive`);
    await s.reloadMoney();
  } catch (err) {
    if (!(err instanceof outbox.Queued)) st.error = 'Not saved: ' + (err instanceof Error ? err.message : String(err));
  }
  st.busy = false;
  s.render(true);
}
