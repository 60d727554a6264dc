// @ts-check
// dom.js builds the page from plain elements. Text always goes in through
// textContent, never innerHTML, so a player named "<b>" stays a name.

/**
 * h makes an element: h('button.big', {onclick}, 'Roll', child...).
 * The tag may carry classes after dots. Attributes whose names start with
 * "on" become listeners; `hidden`, `disabled` and friends take booleans.
 */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
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
 */
export function add(el, ...children) {
  append(el, children);
  return el;
}

// append adds children, flattening arrays and skipping empty ones.
function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** replace swaps the whole content of el for the given children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * typing says whether a field inside el has the focus: a redraw then
 * waits, so nothing moves under a thumb.
 */
export function typing(el) {
  const a = document.activeElement;
  return !!a && el.contains(a) && a.matches('input, select, textarea');
}

/** svg makes an SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** plural writes "1 die" or "3 dice" style counts. */
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * money formats an amount in the table's unit: "4 quarters", "1 quarter",
 * "-1 chip". The unit is a label the host typed, plural as tables name it
 * ("units", "gold pieces"); one of it drops the plural ending.
 */
export function money(amount, currency) {
  return `${amount} ${unit(amount, currency)}`;
}

/** signed is an amount with its sign and unit: "+4 quarters", "-1 quarter", "0 quarters". */
export function signed(amount, currency) {
  return `${amount > 0 ? '+' : ''}${money(amount, currency)}`;
}

/** cap starts a sentence with a capital: "the bank" → "The bank". */
export function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** sentence ends words with a full stop, unless they end a sentence already. */
export function sentence(words) {
  return words.replace(/([^.!?])$/, '$1.');
}

/** unit is the table's unit as said after amount: "quarter" after 1. */
export function unit(amount, currency) {
  return Math.abs(amount) === 1 ? singular(currency) : currency;
}

// singular is one of a plural unit label: "pennies" → "penny", "quarters"
// → "quarter", "gold pieces" → "gold piece"; a label that does not end in
// a plural s ("cash", "€", "bitcoin") stays as it is.
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

/** clock is a moment's time of day ("9:05 PM"), '' for a time it cannot read. */
export function clock(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '' : clockFormat.format(d);
}

/** dayClock is a moment's day of the week and time ("Fri 9:05 PM"). */
export function dayClock(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '' : dayClockFormat.format(d);
}

/** time is a moment as a <time> element, written by clock. */
export function time(at) {
  return h('time', { datetime: at }, clock(at));
}
