// @ts-check
// dom.js builds the page from plain elements. Text always goes in through
// textContent, never innerHTML, so a player named "<b>" stays a name.

/**
 * Child is what h, add and replace take as content: nodes, text, numbers,
 * lists of them (JSDoc cannot say so recursively: unknown[]); null,
 * undefined and false are skipped.
 * @typedef {Node | string | number | boolean | null | undefined | unknown[]} Child
 */

/**
 * Attrs are an element's attributes and listeners (on...: a function of
 * the event, typed here so a handler's parameter needs no annotation).
 * @typedef {{ onclick?: (e: MouseEvent) => unknown, onsubmit?: (e: SubmitEvent) => unknown,
 *   oninput?: (e: Event) => unknown, onchange?: (e: Event) => unknown, ontoggle?: (e: Event) => unknown,
 *   onscroll?: (e: Event) => unknown, [name: string]: unknown }} Attrs
 */

/**
 * h makes an element: h('button.big', {onclick}, 'Roll', child...).
 * The tag may carry classes after dots. Attributes whose names start with
 * "on" become listeners; `hidden`, `disabled` and friends take booleans.
 * @param {string} tag
 * @param {Attrs | Child} [attrs]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(/** @type {Attrs | null | undefined} */ (attrs) || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === 'class') el.className += (el.className ? ' ' : '') + v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

/**
 * add appends children to el, flattening arrays and skipping empty ones
 * (Element.append would write null or undefined as text).
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function add(el, ...children) {
  append(el, children);
  return el;
}

/**
 * append adds children, flattening arrays and skipping empty ones.
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, /** @type {Child[]} */ (c));
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * replace swaps the whole content of el for the given children.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * typing says whether a field inside el has the focus: a redraw then
 * waits, so nothing moves under a thumb.
 * @param {Element} el
 */
export function typing(el) {
  const a = document.activeElement;
  return !!a && el.contains(a) && a.matches('input, select, textarea');
}

/**
 * svg makes an SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(Node | string)} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** plural writes "1 die" or "3 dice" style counts. @param {number} n @param {string} one @param {string} many */
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * money formats an amount in the table's unit: "4 quarters", "1 quarter",
 * "-1 chip". The unit is a label the host typed, plural as tables name it
 * ("units", "gold pieces"); one of it drops the plural ending.
 * @param {number} amount
 * @param {string} currency
 */
export function money(amount, currency) {
  return `${amount} ${unit(amount, currency)}`;
}

/** signed is an amount with its sign and unit: "+4 quarters", "-1 quarter", "0 quarters". @param {number} amount @param {string} currency */
export function signed(amount, currency) {
  return `${amount > 0 ? '+' : ''}${money(amount, currency)}`;
}

/**
 * fieldValue is what the field an input or change event came from holds
 * (an input, a select or a textarea: all have value).
 * @param {Event} e
 */
export function fieldValue(e) {
  return /** @type {HTMLInputElement} */ (e.target).value;
}

/**
 * message is what a caught error says, for the screen: its message, or the
 * thrown value as text when something threw what is not an Error.
 * @param {unknown} err
 */
export function message(err) {
  return err instanceof Error ? err.message : String(err);
}

/** cap starts a sentence
 with a capital: "the bank" → "The bank". @param {string} text */
export function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** sentence ends words with a full stop, unless they end a sentence already. @param {string} words */
export function sentence(words) {
  return words.replace(/([^.!?])$/, '$1.');
}

/** unit is the table's unit as said after amount: "quarter" after 1. @param {number} amount @param {string} currency */
export function unit(amount, currency) {
  return Math.abs(amount) === 1 ? singular(currency) : currency;
}

// singular is one of a plural unit label: "pennies" → "penny", "quarters"
// → "quarter", "gold pieces" → "gold piece"; a label that does not end in
// a plural s ("cash", "€", "bitcoin") stays as it is.
/** @param {string} label */
function singular(label) {
  if (/[^aeiou]ies$/i.test(label)) return label.slice(0, -3) + 'y';
  if (/(ch|sh|x|ss)es$/i.test(label)) return label.slice(0, -2);
  if (/[^s'us]s$/i.test(label)) return label.slice(0, -1);
  return label;
}

// The one way the app writes a time of day: as this phone's locale does
// ("9:05 PM" on a phone set to US English, "21:05" in most of Europe),
// with the same options on every screen, so History never mixes two.
const clockFormat = new Intl.DateTimeFormat([], { hour: 'numeric', minute: '2-digit' });
const dayClockFormat = new Intl.DateTimeFormat([], { weekday: 'short', hour: 'numeric', minute: '2-digit' });

/** clock is a moment's time of day ("9:05 PM"), '' for a time it cannot read. @param {string} at */
export function clock(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '' : clockFormat.format(d);
}

/** dayClock is a moment's day of the week and time ("Fri 9:05 PM"). @param {string} at */
export function dayClock(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '' : dayClockFormat.format(d);
}

/** time is a moment as a <time> element, written by clock. @param {string} at */
export function time(at) {

  return h('time', { datetime: at }, clock(at));
}
