// @ts-check
// handles.js is the phone's own payment handles ("How I like to be paid",
// docs/payments.md §2): added and removed from the player's own phone
// only, shown to the table's other phones at settle-up, and no part of the
// table's record (a removal deletes it). And the host's setting of what a
// unit is worth (§1).

import { h, add } from './dom.js';
import * as api from './api.js';
import { METHODS } from './paying.js';

/** @typedef {import('./page.js').Page} Page */
/** @typedef {import('./page.js').Card} Card */
/** @typedef {import('./api.js').Handle} Handle */
/** @typedef {import('./api.js').PayMethod} PayMethod */

/** @type {Record<PayMethod, string>} what each method's handle is */
const ASKS = { paypal: 'PayPal.Me name', venmo: 'Venmo username', cashapp: '$Cashtag', revolut: 'Revtag', monzo: 'Monzo.me name',
  upi: 'UPI ID (name@bank)', sepa: 'IBAN' };

/**
 * handlesCard lists this phone's own handles with a remove button each,
 * and a form to add one; null on a phone that plays no seat.
 * @param {Page} s @param {Handle[] | undefined} all the table's handles
 */
export function handlesCard(s, all) {
  if (!s.me || s.role === 'audit') return null;
  const ui = s.ui.handles || (s.ui.handles = { method: 'paypal' });
  const mine = (all || []).filter((x) => x.player === s.me);
  const method = /** @type {PayMethod} */ (ui.method);
  const card = h('section.card', { 'data-testid': 'handles' }, h('h2', 'How I like to be paid'),
    h('p.muted.small', 'Shown to the players at this table when they owe you. Only this phone can change them.'));
  if (mine.length) {
    card.append(h('ul.handles', mine.map((x) => h('li', { dataset: { method: x.method } },
      h('span', `${METHODS[x.method]}: ${x.handle}${x.name ? ` (${x.name})` : ''}`),
      h('button.ghost', { type: 'button', 'data-testid': 'remove-handle', dataset: { method: x.method }, disabled: !!ui.busy,
        onclick: () => save(s, ui, api.deleteHandle(s, x.method), `Removed your ${METHODS[x.method]} handle.`) }, 'Remove')))));
  }
  const field = (/** @type {string} */ label, /** @type {'handle' | 'name' | 'bic'} */ name, /** @type {Record<string, unknown>} */ more = {}) =>
    h('label.field', label, h('input', { type: 'text', name, value: ui[name] || '', autocomplete: 'off', ...more,
      oninput: (/** @type {Event} */ e) => { ui[name] = /** @type {HTMLInputElement} */ (e.target).value; } }));
  add(card, h('label.field', 'Method', h('select', { name: 'method', onchange: (/** @type {Event} */ e) => {
    ui.method = /** @type {HTMLSelectElement} */ (e.target).value;
    s.render(true);
  } }, Object.entries(METHODS).map(([m, label]) => h('option', { value: m, selected: m === method }, label)))),
  field(ASKS[method], 'handle'),
  (method === 'sepa' || method === 'upi') && field(method === 'sepa' ? 'Account holder' : 'Name (optional)', 'name'),
  method === 'sepa' && field('BIC (optional)', 'bic'),
  h('button.primary', { type: 'button', 'data-testid': 'add-handle', disabled: !!ui.busy, onclick: () => {
    const body = { handle: String(ui.handle || '').trim(), name: String(ui.name || '').trim() || undefined, bic: String(ui.bic || '').trim() || undefined };
    save(s, ui, api.putHandle(s, method, body), `Saved: players who owe you see your ${METHODS[method]}.`, true);
  } }, ui.busy ? 'Saving…' : 'Save'),
  ui.done && h('p.ok', { role: 'status' }, ui.done),
  ui.error && h('p.error', { role: 'alert', 'data-testid': 'handle-error' }, ui.error));
  return card;
}

/**
 * save sends a handle's change (at once: it is this phone's own setting,
 * not part of the night's record, and the form says if it failed).
 * @param {Page} s @param {Card} ui @param {api.Write} req @param {string} done @param {boolean} [clear]
 */
async function save(s, ui, req, done, clear = false) {
  Object.assign(ui, { busy: true, error: '', done: '' });
  s.render(true);
  try {
    await api.send(req);
    if (clear) Object.assign(ui, { handle: '', name: '', bic: '' });
    ui.done = done;
    await s.reloadMoney();
  } catch (err) {
    ui.error = err instanceof Error ? err.message : String(err);
  }
  ui.busy = false;
  s.render(true);
}

/** DIGITS are the ISO 4217 currencies whose minor unit is not 2 (pay/currency.go has them all). */
const DIGITS = /** @type {Record<string, number>} */ ({ BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0,
  RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0, BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3, CLF: 4, UYW: 4 });

/**
 * minorText writes minor units of an ISO 4217 currency as people read
 * them ("€0.25", "¥100"), with the currency's own decimals.
 * @param {string} currency @param {number} minor
 */
export function minorText(currency, minor) {
  const digits = DIGITS[currency] ?? 2;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits })
      .format(minor / 10 ** digits);
  } catch {
    return `${currency} ${(minor / 10 ** digits).toFixed(digits)}`;
  }
}

/**
 * unitValueCard is the host's "What a unit is worth": a currency code and
 * the worth of one unit, sent in the currency's minor units.
 * @param {Page} s
 */
export function unitValueCard(s) {
  if (s.role !== 'host' || !s.table) return null;
  const t = s.table;
  const ui = s.ui.unitValue || (s.ui.unitValue = { currency: t.unitValue ? t.unitValue.currency : 'EUR', worth: '' });
  return h('section.card', { 'data-testid': 'unit-value' }, h('h2', 'What a unit is worth'),
    h('p', t.unitValue ? t.unitValue.text : `Not set: settle-up says amounts in ${t.currency} only.`),
    h('label.field', 'Currency (ISO code, such as EUR)', h('input', { type: 'text', name: 'unit-currency', maxlength: 3, value: ui.currency,
      oninput: (/** @type {Event} */ e) => { ui.currency = /** @type {HTMLInputElement} */ (e.target).value.toUpperCase(); } })),
    h('label.field', `One ${t.currency.replace(/s$/, '')} is worth`, h('input', { type: 'text', inputmode: 'decimal', name: 'unit-worth',
      placeholder: '0.25', value: ui.worth, oninput: (/** @type {Event} */ e) => { ui.worth = /** @type {HTMLInputElement} */ (e.target).value; } })),
    h('button.primary', { type: 'button', 'data-testid': 'set-unit-value', disabled: !!ui.busy, onclick: () => setValue(s, ui) },
      ui.busy ? 'Saving…' : 'Set'),
    ui.error && h('p.error', { role: 'alert' }, ui.error));
}

/** setValue converts the typed worth to minor units and sends it. @param {Page} s @param {import('./page.js').UnitValueCard} ui */
async function setValue(s, ui) {
  const currency = String(ui.currency || '').trim();
  const digits = DIGITS[currency] ?? 2;
  const m = /^(\d+)(?:[.,](\d+))?$/.exec(String(ui.worth || '').trim());
  if (!m || (m[2] || '').length > digits) {
    ui.error = `Type the worth as a number with at most ${digits} decimals, such as ${digits ? '0.' + '25'.padEnd(digits, '0') : '100'}.`;
    s.render(true);
    return;
  }
  const perUnit = Number(m[1]) * 10 ** digits + Number((m[2] || '').padEnd(digits, '0') || 0);
  Object.assign(ui, { busy: true, error: '' });
  s.render(true);
  try {
    await api.send(api.setUnitValue(s, { currency, perUnit }));
    await s.refresh();
    await s.reloadMoney();
  } catch (err) {
    ui.error = err instanceof Error ? err.message : String(err);
  }
  ui.busy = false;
  s.render(true);
}
