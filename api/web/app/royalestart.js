// @ts-check
// royalestart.js is the start of a Battleship Royale game: the host's
// card that deals, then each player keeping a dealt hand (two discards)
// or typing the cards held from the box.

import { h, add, plural, money, fieldValue } from './dom.js';
import * as api from './api.js';
import { ui, act, sendGame, errorLine, ROWS, KINDS, LENGTH, KIND_NAME } from './royaleact.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {api.RoyaleGame} RoyaleGame */
/** @typedef {api.Schemas['RoyaleCard']} RoyaleCard */

// startGameCard is the host's: who starts, then deal.
/** @param {Ready} s */
export function startGameCard(s) {
  const t = s.table;
  const royale = /** @type {NonNullable<api.Table['royale']>} */ (t.royale); // a Battleship Royale table
  const o = royale.options;
  const ante = o.ante || 0;
  const bounty = o.bounty || 0;
  const seated = t.players.filter((p) => !p.leftAt);
  const u = s.ui.startGame || (s.ui.startGame = { first: seated.length ? seated[0].id : 0 });
  const n = (royale.gamesPlayed || 0) + 1;
  return h('section.card.start-round', { 'data-testid': 'start-game-card' }, h('h2', `Game ${n}`),
    h('p', `${o.mode === 'advanced' ? 'Advanced' : 'Standard'} game · ${o.fleet === 'entered' ? 'cards typed from the box' : 'Tally deals the hands'} · ` +
      `${o.die === 'tally' ? 'Tally rolls the die' : 'the real die'} · ${ante > 0 ? `ante ${money(ante, t.currency)}` : 'no ante'}` +
      `${bounty > 0 ? ` · bounty ${money(bounty, t.currency)} per sunk card` : ''}`),
    h('label.field', 'Who starts? (the youngest, says the box)', h('select', { 'data-testid': 'first',
      onchange: (e) => { u.first = Number(fieldValue(e)); } },
      seated.map((p) => h('option', { value: p.id, selected: p.id === u.first }, p.name)))),
    errorLine(u),
    h('button.primary', { type: 'button', 'data-testid': 'start-game', disabled: u.busy,
      onclick: () => sendGame(s, u, api.startRoyale(s, { first: u.first }), (game) => {
        s.ui.startGame = null;
        if (game) royale.currentGame = game.number; // never queued: there is a game
      }) }, u.busy ? 'Dealing…' : `Start game ${n}`));
}

// fleetsCard is the start of a game: each player keeps or enters a fleet.
/** @param {Ready} s @param {RoyaleGame} g */
export function fleetsCard(s, g) {
  const waiting = g.players.filter((p) => !p.ready).map((p) => s.name(p.player));
  const card = h('section.card', { 'data-testid': 'fleets' }, h('h2', `Game ${g.number}: choose your fleet`),
    h('p', { 'data-testid': 'waiting-for' }, waiting.length ? `Still choosing: ${waiting.join(', ')}.` : 'Every fleet is in.'));
  // A player's phone, and the host's for its own seat, choose that fleet.
  const mine = s.me ? g.players.find((p) => p.player === s.me) : null;
  if (mine) {
    if (mine.ready) card.append(h('p', { 'data-testid': 'fleet-kept' }, 'Your fleet is in. It stays on this phone until its cards sink.'));
    else if (g.options.fleet === 'entered') card.append(entryForm(s, g, s.me));
    else card.append(handPicker(s, g, s.me, g.hand || []));
  }
  if (s.role === 'host') {
    for (const p of g.players) {
      if (p.ready || p.player === s.me) continue;
      const held = (g.held || []).find((x) => x.player === p.player);
      const seat = s.table.players.find((x) => x.id === p.player);
      if (held) {
        card.append(h('h3', `${s.name(p.player)}’s fleet (no phone, you hold it)`),
          g.options.fleet === 'entered' ? entryForm(s, g, p.player) : handPicker(s, g, p.player, held.hand || []));
      } else if (seat && !seat.claimed) {
        const u = ui(s, g);
        const name = s.name(p.player);
        card.append(u.holdAsk === p.player
          // The host is about to see this fleet: it says so first, and the
          // table's log will say so too.
          ? h('div.confirm', { role: 'alert' }, h('p', `You will see ${name}’s fleet. Only do this if ${name} has no phone: everyone’s history will show that the host holds it.`),
            h('button.primary', { type: 'button', 'data-testid': `hold-yes-${name}`, disabled: u.busy,
              onclick: () => act(s, g, { player: p.player, kind: 'hold' }) }, `Yes, I choose ${name}’s fleet`),
            h('button.ghost', { type: 'button', onclick: () => { u.holdAsk = 0; s.render(); } }, 'Cancel'))
          : h('button.ghost', { type: 'button', 'data-testid': `hold-${name}`, onclick: () => { u.holdAsk = p.player; s.render(); } },
            `Choose ${name}’s fleet (no phone)`));
      }
    }
  }
  add(card, errorLine(ui(s, g)));
  return card;
}

// handPicker shows a dealt hand; two taps mark the discards.
/** @param {Ready} s @param {RoyaleGame} g @param {number} player @param {RoyaleCard[]} hand */
function handPicker(s, g, player, hand) {
  const u = ui(s, g);
  const discard = u.discards[player] || (u.discards[player] = []);
  const keep = hand.length - 2;
  const cards = hand.map((c, i) => {
    const sub = g.options.mode === 'advanced' && c.kind === 'submarine';
    const out = discard.includes(i);
    return h('button.shipcard', { type: 'button', class: out ? 'discard' : '', disabled: sub || u.busy,
      'data-testid': `hand-${i}`, onclick: () => {
        u.discards[player] = out ? discard.filter((x) => x !== i) : [...discard, i].slice(-2);
        s.render();
      } },
    h('b', KIND_NAME[c.kind] || c.kind), h('span', c.cells.join(' ')),
    c.bonus ? h('small', `bonus ${c.bonus}`) : null,
    h('small', sub ? 'always kept' : out ? 'discard' : 'keep'));
  });
  return h('div.hand', h('p', `Tap the 2 cards to discard; you keep ${keep}.`),
    h('div.cards', cards), miniBoard(hand.filter((_, i) => !discard.includes(i))),
    h('button.primary', { type: 'button', 'data-testid': 'keep', disabled: discard.length !== 2 || u.busy,
      onclick: () => act(s, g, { player, kind: 'keep', discard: [...discard].sort((a, b) => a - b) }) },
    u.busy ? 'Keeping…' : `Keep these ${keep}`));
}

// entryForm types the cards held from the box: kind, cells, bonus number.
/** @param {Ready} s @param {RoyaleGame} g @param {number} player */
function entryForm(s, g, player) {
  const u = ui(s, g);
  const n = g.players.length >= 5 ? 2 : 3;
  const cards = u.cards[player] || (u.cards[player] = Array.from({ length: n }, (_, i) => ({ kind: g.options.mode === 'advanced' && i === 0 ? 'submarine' : 'destroyer', cells: '', bonus: 0 })));
  const rows = cards.map((c, i) => h('div.entercard', { role: 'group', 'aria-label': `card ${i + 1}` },
    h('select', { 'data-testid': `enter-kind-${i}`, 'aria-label': `card ${i + 1}: the ship`, onchange: (e) => { c.kind = fieldValue(e); } },
      KINDS.map((k) => h('option', { value: k, selected: k === c.kind }, `${KIND_NAME[k]} (${LENGTH[k]})`))),
    h('input', { type: 'text', 'data-testid': `enter-cells-${i}`, 'aria-label': `card ${i + 1}: its cells`, placeholder: 'cells, e.g. B2 B3 B4', value: c.cells,
      autocapitalize: 'characters', autocomplete: 'off', oninput: (e) => { c.cells = fieldValue(e); } }),
    g.options.mode === 'advanced' && h('input.bonus', { type: 'number', min: 0, max: 5, 'aria-label': `card ${i + 1}: its bonus number`,
      value: c.bonus, oninput: (e) => { c.bonus = Number(fieldValue(e)) || 0; } })));
  return h('div.enter', h('p', g.options.mode === 'advanced'
    ? `Type your submarine and ${plural(n - 1, 'ship', 'ships')} as the cards show them, with the bonus number printed on each ship (and on the submarine, if it shows one).`
    : `Type the ${n} ship cards you hold, as the cards show them.`), rows,
  h('button.primary', { type: 'button', 'data-testid': 'enter', disabled: u.busy, onclick: () => act(s, g, {
    player, kind: 'enter', fleet: cards.map((c) => ({ kind: /** @type {RoyaleCard['kind']} */ (c.kind), cells: c.cells.split(/[\s,]+/).filter(Boolean),
      ...(g.options.mode === 'advanced' && c.bonus ? { bonus: c.bonus } : {}) })),
  }) }, u.busy ? 'Sending…' : 'This is my fleet'));
}

// miniBoard draws a few cards on a small grid (the hand being chosen).
/** @param {RoyaleCard[]} cards */
function miniBoard(cards) {
  const on = new Set(cards.flatMap((c) => c.cells));
  return h('div.mini', { 'aria-hidden': 'true' }, [...ROWS].flatMap((r) =>
    Array.from({ length: 10 }, (_, c) => h('span', { class: on.has(`${r}${c + 1}`) ? 'ship' : '' }))));
}
