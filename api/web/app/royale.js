// @ts-check
// royale.js is the Play tab of a Battleship Royale table: starting a game,
// the dealt hand and its two discards (or the cards typed from the box),
// the board with this phone's own fleet on it, the turn (sonar, the die,
// shots and volleys, bonus shots, done), and the result with every fleet
// revealed and checked against the commitment published when play began.
//
// A phone draws only what its own token reads: another player's fleet
// never reaches it before its cards sink or the game ends.

import { h, add, plural, money, fieldValue, message } from './dom.js';
import * as api from './api.js';
import { lastAudit, auditCards, receiptCard } from './audit.js';
import { commitment } from './commit.js';
/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {import('./api.js').RoyaleGame} RoyaleGame */
/** @typedef {import('./royaleact.js').RoyaleUI} RoyaleUI */
import { ui, act, sendGame, errorLine, ROWS, KIND_NAME } from './royaleact.js';
import { startGameCard, fleetsCard } from './royalestart.js';

/** royaleTab renders the game in play, or the last result and a start card. @param {HTMLElement} el @param {Ready} s */
export function royaleTab(el, s) {
  const t = s.table;
  const g = s.game;
  if (t.status === 'closed') {
    el.append(h('section.card', { 'data-testid': 'closed-card' }, h('h2', 'This table is closed'),
      h('p', 'No more games: the final balances and who pays whom are on the Money tab.')));
    if (g) add(el, resultCard(s, g), boardCard(s, g));
    return;
  }
  if (!g || g.phase === 'over') {
    if (g) add(el, resultCard(s, g), boardCard(s, g), logCard(s, g));
    if (s.role === 'host') el.append(startGameCard(s));
    else if (s.role === 'player') el.append(h('section.card', h('p', 'Waiting for the host to start the next game.')));
    return;
  }
  if (g.phase === 'fleets') {
    add(el, fleetsCard(s, g), abandonCard(s, g));
    return;
  }
  add(el, turnCard(s, g), boardCard(s, g), playersCard(s, g), logCard(s, g), abandonCard(s, g));
  keepBoard(el, s);
}

// keepBoard puts the redrawn board where the old one was: scrolled as far
// sideways as the thumb had taken it (a redraw makes a new board, which
// would start at column 1), and, after a tap that aimed, with that cell
// clear of the header and of the fire buttons held above the tab bar. The
// host's notices of phones that joined (joins.js) float above the tab bar
// too: the fire buttons are held above them (--above, a custom property
// set through the CSSOM, which the page's CSP allows, unlike a style
// attribute).
/** @param {HTMLElement} el @param {Ready} s */
function keepBoard(el, s) {
  const scroller = /** @type {HTMLElement | null} */ (el.querySelector('.boardscroll'));
  if (!scroller) return;
  if (s.ui.boardLeft) scroller.scrollLeft = s.ui.boardLeft;
  const bar = /** @type {HTMLElement | null} */ (el.querySelector('.firebar'));
  const joins = document.querySelector('main .notices');
  if (bar && joins) bar.style.setProperty('--above', `${Math.ceil(joins.getBoundingClientRect().height) + 8}px`);
  const aimed = s.ui.aimed && scroller.querySelector(`[data-cell="${s.ui.aimed}"]`);
  s.ui.aimed = '';
  if (!aimed) return;
  const cell = aimed.getBoundingClientRect();
  const top = document.querySelector('header.top')?.getBoundingClientRect().bottom ?? 0;
  const below = bar || document.querySelector('nav.tabs');
  const bottom = below ? below.getBoundingClientRect().top : innerHeight;
  if (cell.bottom > bottom) window.scrollBy(0, cell.bottom - bottom + 8);
  else if (cell.top < top) window.scrollBy(0, cell.top - top - 8);
}

// abandonCard is the host's way out of a game nobody will finish: the pot
// goes back to its players, as at closing a table, after a confirmation.
/** @param {Ready} s @param {RoyaleGame} g */
function abandonCard(s, g) {
  if (s.role !== 'host') return null;
  const u = s.ui.abandon && s.ui.abandon.game === g.number ? s.ui.abandon : (s.ui.abandon = { game: g.number });
  if (!u.ask) {
    return h('section.card', h('button.ghost', { type: 'button', 'data-testid': 'abandon',
      onclick: () => { u.ask = true; s.render(); } }, 'Abandon this game…'));
  }
  return h('section.card.confirm', { role: 'alert' },
    h('p', `Abandon game ${g.number}? Nobody wins; the pot (${money(g.pot, s.table.currency)}) goes back to the players and every fleet is shown.`),
    errorLine(u),
    h('button.primary', { type: 'button', 'data-testid': 'abandon-yes', disabled: u.busy,
      onclick: () => sendGame(s, u, api.abandonRoyale(s, g.number), () => { s.ui.abandon = null; }) },
    'Yes, abandon it'),
    h('button.ghost', { type: 'button', onclick: () => { u.ask = false; s.render(); } }, 'Keep playing'));
}

// turnCard is whose turn it is and, on the phone that records it, what to do.
/** @param {Ready} s @param {RoyaleGame} g */
function turnCard(s, g) {
  const who = g.turn;
  const mine = s.mayRecordFor(who);
  const u = ui(s, g);
  const title = s.me && s.me === who ? 'Your turn' : `${s.name(who)}’s turn`;
  const card = h('section.card.turn', { 'data-testid': 'turn' }, h('h2', { 'data-testid': 'whose-turn' }, title),
    h('p.next', { 'data-testid': 'next' }, nextLine(s, g, mine)));
  if (!mine) return card;
  const controls = h('div.controls');
  if (g.canSonar) controls.append(sonarControl(s, g, u));
  if (!g.die) {
    controls.append(g.options.die === 'tally'
      ? h('button.primary', { type: 'button', 'data-testid': 'roll', disabled: u.busy, onclick: () => act(s, g, { player: who, kind: 'roll' }) }, 'Roll the die')
      : h('div.diepick', h('span', 'The die shows'), [1, 2, 3].map((d) => h('button.dienumber', { type: 'button', 'data-testid': `die-${d}`,
        disabled: u.busy, onclick: () => act(s, g, { player: who, kind: 'roll', die: d }) }, String(d)))));
  }
  // Once the die is rolled, what to tap is under the board (fireButtons),
  // with the reason for a refusal.
  add(card, controls.childElementCount ? controls : null, !g.die && errorLine(u));
  return card;
}

// fireButtons are the turn's phone's buttons once the die is rolled: fire
// (a shot or a volley), any bonus shots, and the end of the turn, with the
// reason for a refusal. They sit under the board, where the thumb aims,
// held above the tab bar while the board is in view, so a cell aimed in
// the last row or the last columns can be fired at without scrolling back
// up to the turn.
/** @param {Ready} s @param {RoyaleGame} g @param {RoyaleUI} u */
function fireButtons(s, g, u) {
  const who = g.turn;
  /** @type {Partial<api.Schemas['RoyalePlayer']>} */
  const me = g.players.find((p) => p.player === who) || {};
  const advanced = g.options.mode === 'advanced';
  const want = advanced ? g.shotsLeft : Math.min(1, g.shotsLeft);
  const out = [];
  if (g.shotsLeft > 0) {
    out.push(h('button.primary', { type: 'button', 'data-testid': 'fire', disabled: u.busy || u.sel.length !== want,
      onclick: () => act(s, g, { player: who, kind: 'shoot', cells: [...u.sel] }) },
    advanced ? `Fire the volley (${u.sel.length} of ${want})` : u.sel.length ? `Fire at ${u.sel[0]}` : 'Tap a cell to aim'));
  }
  if (!advanced && (me.bonusShots || 0) > 0) {
    out.push(h('button', { type: 'button', 'data-testid': 'bonus', disabled: u.busy || u.sel.length !== 1,
      onclick: () => act(s, g, { player: who, kind: 'bonus', cells: [...u.sel] }) },
    `Bonus shot${u.sel.length ? ` at ${u.sel[0]}` : ''} (${me.bonusShots} left)`));
  }
  if (advanced) {
    (me.trophies || []).forEach((tr, i) => {
      if (tr.used || !tr.shots) return;
      out.push(h('button', { type: 'button', 'data-testid': `bonus-${i + 1}`, disabled: u.busy || u.sel.length !== tr.shots,
        onclick: () => act(s, g, { player: who, kind: 'bonus', card: i + 1, cells: [...u.sel] }) },
      `Bonus volley: ${KIND_NAME[tr.kind] || tr.kind} (${u.sel.length} of ${tr.shots})`));
    });
  }
  if (g.shotsLeft === 0) {
    out.push(h('button.ghost', { type: 'button', 'data-testid': 'end-turn', disabled: u.busy,
      onclick: () => act(s, g, { player: who, kind: 'end' }) }, 'End the turn'));
  }
  return h('div.firebar', { 'data-testid': 'firebar' }, out, errorLine(u));
}

// nextLine says what the turn waits for.
/** @param {Ready} s @param {RoyaleGame} g @param {boolean} mine */
function nextLine(s, g, mine) {
  const name = s.me && s.me === g.turn ? 'You' : s.name(g.turn);
  if (!g.die) return mine ? (g.canSonar ? 'Sonar first if you like, then the die.' : 'Roll the die.') : `Waiting for ${name} to roll.`;
  if (g.shotsLeft > 0) {
    const what = g.options.mode === 'advanced' ? `a volley of ${plural(g.shotsLeft, 'shot', 'shots')}` : `${plural(g.shotsLeft, 'shot', 'shots')} left`;
    return `Die: ${g.die} — ${what}.${mine ? ' Tap cells on the board.' : ''}`;
  }
  return mine ? `Die: ${g.die} — shots fired. Use a bonus or end the turn.` : `Waiting for ${name} to finish.`;
}

// sonarControl names a row or a column.
/** @param {Ready} s @param {RoyaleGame} g @param {RoyaleUI} u */
function sonarControl(s, g, u) {
  if (!u.line) u.line = 'A';
  const lines = [...[...ROWS].map((r) => [r, `Row ${r}`]), ...Array.from({ length: 10 }, (_, i) => [String(i + 1), `Column ${i + 1}`])];
  return h('div.sonar', h('select', { 'data-testid': 'sonar-line', 'aria-label': 'the row or column to sonar', onchange: (e) => { u.line = fieldValue(e); } },
    lines.map(([v, label]) => h('option', { value: v, selected: v === u.line }, label))),
  h('button', { type: 'button', 'data-testid': 'sonar', disabled: u.busy, onclick: () => act(s, g, { player: g.turn, kind: 'sonar', line: u.line }) }, 'Sonar'));
}

// boardCard is the shared grid: pegs for everyone, this phone's own fleet
// under them, every fleet once the game is over. On the turn's phone a tap
// aims.
/** @param {Ready} s @param {RoyaleGame} g */
function boardCard(s, g) {
  const pegs = new Map(g.board.map((p) => [p.cell, p]));
  // This phone's own fleet; the host's phone draws the fleets it holds.
  const own = new Set([...(g.fleet || []), ...(g.held || []).flatMap((x) => x.fleet || [])].flatMap((c) => c.cells));
  const revealed = new Map();
  for (const r of g.revealed || []) for (const c of r.fleet || []) for (const x of c.cells) revealed.set(x, r.player);
  const aiming = g.phase === 'playing' && g.die && s.mayRecordFor(g.turn);
  const u = ui(s, g);
  const limit = g.options.mode === 'advanced' ? Math.max(g.shotsLeft, ...bonusSizes(g)) : 1;
  // The board is buttons each named by its cell ("J10 miss"), not an ARIA
  // grid, which would promise moving between cells with the arrow keys;
  // the row and column labels are for the eyes, as each button says its
  // cell.
  const grid = h('div.board', { 'data-testid': 'board' }, h('span.corner'),
    Array.from({ length: 10 }, (_, c) => h('span.collabel', { 'aria-hidden': 'true' }, String(c + 1))),
    [...ROWS].map((r) => [h('span.rowlabel', { 'aria-hidden': 'true' }, r), Array.from({ length: 10 }, (_, c) => {
      const cell = `${r}${c + 1}`;
      const p = pegs.get(cell);
      const classes = [own.has(cell) ? 'ship' : '', revealed.has(cell) ? 'revealed' : '', p ? p.state : '', u.sel.includes(cell) ? 'sel' : ''];
      const mark = !p ? '' : p.state === 'miss' ? '•' : p.state === 'sunk' ? '■' : p.hits > 1 ? '✕✕' : '✕';
      return h('button.cell', { type: 'button', class: classes.filter(Boolean).join(' '), 'data-cell': cell,
        'aria-label': `${cell}${p ? ` ${p.state}` : ''}${own.has(cell) ? ' your ship' : ''}`,
        disabled: !aiming || !!p || u.busy, onclick: () => {
          u.sel = u.sel.includes(cell) ? u.sel.filter((x) => x !== cell) : [...u.sel, cell].slice(-limit);
          s.ui.aimed = cell;
          s.render();
        } }, mark);
    })]));
  // The board scrolls sideways on a narrow phone: it keeps where it was
  // scrolled to across redraws (keepBoard), and can take the focus, so a
  // keyboard can scroll it too.
  const scroller = h('div.boardscroll', { tabindex: 0, role: 'region', 'aria-label': 'The board, rows A to J, columns 1 to 10',
    onscroll: (e) => { s.ui.boardLeft = /** @type {HTMLElement} */ (e.target).scrollLeft; } }, grid);
  return h('section.card.boardcard', h('p.legend.swipe', 'Rows A–J, columns 1–10: swipe the board sideways for the last columns.'),
    scroller, aiming ? fireButtons(s, g, u) : null,
    h('p.legend', own.size ? [h('span.key.ship', ''), (g.held || []).length ? (g.fleet || []).length ? ' your fleet and those you hold  '
      : ' fleets you hold  ' : ' your fleet  '] : null,
      revealed.size ? [h('span.key.revealed', ''), ' fleets revealed at the end  '] : null,
      h('span', '• miss  ✕ hit  ✕✕ double hit  ■ sunk')));
}

// bonusSizes are the sizes of the turn's player's unused bonus volleys.
/** @param {RoyaleGame} g @returns {number[]} */
function bonusSizes(g) {
  const me = g.players.find((p) => p.player === g.turn);
  return me ? me.trophies.filter((t) => !t.used && t.shots > 0).map((t) => t.shots) : [];
}

// playersCard is every player: afloat, out, bonus shots and sonars.
/** @param {Ready} s @param {RoyaleGame} g */
function playersCard(s, g) {
  return h('section.card', { 'data-testid': 'players' }, h('h2', 'Fleets'),
    h('ul.players', g.players.map((p) => h('li', { class: p.eliminated ? 'out' : '', 'data-testid': `player-${s.name(p.player)}` },
      h('b', s.name(p.player)), ' ',
      p.eliminated ? 'out' : `${plural(p.afloat, 'card', 'cards')} afloat`,
      p.bonusShots ? ` · ${plural(p.bonusShots, 'bonus shot', 'bonus shots')}` : '',
      p.sonars ? ` · ${plural(p.sonars, 'sonar', 'sonars')}` : '',
      p.player === g.turn ? ' · to play' : ''))));
}

// logCard lists what sank and what sonar heard.
/** @param {Ready} s @param {RoyaleGame} g */
function logCard(s, g) {
  if (!g.sunkCards.length && !g.sonar.length) return null;
  return h('section.card', { 'data-testid': 'log' }, h('h2', 'Sunk and heard'),
    h('ul', g.sunkCards.map((k) => h('li', `${s.name(k.shooter)} sank ${s.name(k.owner)}’s ${(KIND_NAME[k.card.kind] || k.card.kind).toLowerCase()} (${k.card.cells.join(' ')})`)),
      g.sonar.map((c) => h('li', `${s.name(c.player)}’s sonar on ${/^\d/.test(c.line) ? 'column' : 'row'} ${c.line}: ${c.ping ? 'ping!' : 'no ping'}`))));
}

// resultCard says who won and what the pot paid, and checks every revealed
// fleet against the commitment published when play began.
/** @param {Ready} s @param {RoyaleGame} g */
function resultCard(s, g) {
  const r = g.result;
  if (!r) return null;
  const st = r.settlement;
  const cur = s.table.currency;
  const head = r.abandoned ? `Game ${g.number} abandoned` : r.winners.length > 1
    ? `Game ${g.number}: ${r.winners.map((w) => s.name(w)).join(' and ')} tie` : `Game ${g.number}: ${s.name(r.winners[0])} wins`;
  const card = h('section.card.result', { 'data-testid': 'royale-result' }, h('h2', head),
    h('ul', st.payouts.map((p) => h('li', `${s.name(p.player)} takes ${money(p.amount, cur)}`))),
    st.remainder ? h('p', `${money(st.remainder, cur)} ${st.remainder === 1 ? 'stays' : 'stay'} in the pot for the next game.`) : null);
  if (!g.commitments) {
    // Abandoned before every fleet was in: nothing was sealed.
    card.append(h('p.muted', { 'data-testid': 'commitments' }, 'The game ended before play began: no fleet was sealed.'));
    return card;
  }
  const check = h('p.check', { 'data-testid': 'commitments' }, 'Checking every fleet against its commitment…');
  card.append(check);
  verifyAll(g).then((ok) => {
    check.textContent = ok ? `✓ Every fleet is the one sealed when play began (${Object.keys(g.commitments || {}).length} commitments checked).`
        : '✗ A revealed fleet does not match its commitment: see the History tab’s audit.';
    check.className = ok === false ? 'check error' : 'check';
  });
  return card;
}

// verifyAll recomputes each revealed fleet's commitment (commit.js) and
// compares it with the one published when play began.
/** @param {RoyaleGame} g */
async function verifyAll(g) {
  for (const r of g.revealed || []) {
    const want = g.commitments && g.commitments[r.player];
    if (!want || (await commitment(r.fleet, r.salt)) !== want) return false;
  }
  return true;
}

/** gameHistory is a Royale table's History tab: the audit, the receipt and every game, newest first. @param {HTMLElement} el @param {Ready} s */
export function gameHistory(el, s) {
  const data = s.cached('history', async () => {
    const royale = /** @type {NonNullable<api.Table['royale']>} */ (s.table.royale); // a Battleship Royale table's tab
    const n = royale.currentGame || royale.gamesPlayed || 0;
    const want = Array.from({ length: n }, (_, i) => api.royale(s, i + 1));
    const [games, audit] = await Promise.allSettled([Promise.all(want), lastAudit(s)]);
    /** @template T @param {PromiseSettledResult<T>} r @returns {import('./tablelog.js').Loaded<T>} */
    const plain = (r) => (r.status === 'fulfilled' ? { value: r.value } : { error: message(r.reason) });
    return { games: plain(games), audit: plain(audit) };
  });
  if (!data) {
    el.append(h('p.card.muted', 'Loading the history…'));
    return;
  }
  el.append(...auditCards(data.audit), receiptCard(s));
  if (data.games.error) {
    el.append(h('p.card.error', data.games.error));
    return;
  }
  const games = data.games.value || []; // there when there is no error
  if (!games.length) el.append(h('p.card', 'No games yet: they show here as soon as the first one starts.'));
  for (const g of [...games].reverse()) {
    add(el, g.result ? resultCard(s, g) : h('section.card', h('h2', `Game ${g.number}`), h('p', 'In play.')));
    const log = logCard(s, g);
    if (log) el.append(log);
  }
}
