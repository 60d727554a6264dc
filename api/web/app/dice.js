// @ts-check
// dice.js draws dice as pips (readable at a glance in a dark bar), the
// covered cup of a sealed roll, and the entry pad players tap faces on.

import { h, plural } from './dom.js';

// MAX_DICE is the most dice any throw has.
const MAX_DICE = 5;

// PIPS places each face's pips on a 3x3 grid, cells numbered 1 to 9.
/** @type {Record<number, number[]>} */
const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

/** die draws one face; size is 'sm', 'md' or 'lg'; mark adds a class. @param {number} face @param {string} [size] @param {string} [mark] */
export function die(face, size = 'md', mark = '') {
  return h(`span.die.${size}${mark ? '.' + mark : ''}`, { role: 'img', 'aria-label': String(face), dataset: { face } },
    (PIPS[face] || []).map((c) => h(`span.pip.c${c}`)));
}

/**
 * dice draws a row of faces, marking the banked ones.
 * @param {number[] | undefined} faces
 * @param {number[]} [banked]
 * @param {string} [size]
 */
export function dice(faces, banked = [], size = 'sm') {
  const left = [...banked];
  return h('span.dice', (faces || []).map((f) => {
    const i = left.indexOf(f);
    if (i >= 0) left.splice(i, 1);
    return die(f, size, i >= 0 ? 'banked' : '');
  }));
}

/** cup draws a covered cup: a closed roll nobody else may read yet. */
export function cup() {
  return h('span.cup', { role: 'img', 'aria-label': 'under the cup', title: 'under the cup' });
}

/**
 * pad is the entry pad: six big faces, the tray of dice entered so far (tap
 * one to take it back) and the send button. `need` is how many dice this
 * throw has, which the round's `next` (or the cargo picked up) says: the
 * faces take no more than that, and the button offers to send only a throw
 * of exactly that many, so a count the rules refuse is never offered.
 * `entry.dice` holds the faces (mutated here); `onChange` re-renders;
 * `sendLabel(n)` names the button once the throw is whole; `bad` is the
 * 1-based die the engine objected to, to highlight it; `aside` is a button
 * to put beside the send button (a way back); `tool` is the camera
 * (camera.js): its button goes beside the send button, its panel above
 * the tray. A `need` of 0 is a throw whose count the phone cannot know
 * (written while earlier ones wait to be sent): up to five dice, any
 * count, and the engine judges it when it arrives.
 * @param {{ need: number, entry: { dice: number[] }, onChange: () => void, sendLabel: (n: number) => string,
 *   onSend: () => void, busy?: boolean, bad?: number | null, extra?: { blocked: boolean, node: Node | null } | null,
 *   aside?: Node | null, tool?: { button: Node, panel: Node | null } | null }} opts
 */
export function pad({ need, entry, onChange, sendLabel, onSend, busy, bad, extra, aside, tool }) {
  const most = need || MAX_DICE;
  if (entry.dice.length > most) entry.dice.length = most;
  const full = entry.dice.length >= most;
  const ready = need ? full : entry.dice.length > 0;
  const tray = h('div.tray', { role: 'group', 'aria-label': 'dice entered', 'data-testid': 'tray' },
    entry.dice.map((f, i) => h('button.traydie', {
      type: 'button', 'aria-label': `remove ${f}`, dataset: { face: f },
      onclick: () => { entry.dice.splice(i, 1); onChange(); },
    }, die(f, 'md', bad === i + 1 ? 'bad' : ''))),
    Array.from({ length: Math.max(0, need - entry.dice.length) }, () => h('span.slot')));
  const faces = h('div.faces', [1, 2, 3, 4, 5, 6].map((f) => h('button.face', {
    type: 'button', 'aria-label': `add ${f}`, disabled: full || busy, dataset: { face: f },
    onclick: () => { if (entry.dice.length < most) { entry.dice.push(f); onChange(); } },
  }, die(f, 'lg'))));
  const left = need - entry.dice.length;
  const label = busy ? 'Sending…' : ready ? sendLabel(entry.dice.length)
    : entry.dice.length ? `Tap ${plural(left, 'more die', 'more dice')}` : !need ? 'Tap the dice you see'
      : `Tap the ${need === 1 ? 'die' : `${need} dice`} you see`;
  const send = h('button.primary.send', {
    type: 'button', disabled: !ready || busy || (extra && extra.blocked), onclick: onSend, 'data-testid': 'send',
  }, label);
  const row = tool ? h('div.sendrow.withtool', aside, tool.button, send) : aside ? h('div.sendrow', aside, send) : send;
  return h('div.pad', tool && tool.panel, tray, faces, extra && extra.node, row);
}
