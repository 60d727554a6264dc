// royale.js is the Play tab of a Battleship Royale table: starting a game,
// the dealt hand and its two discards (or the cards typed from the box),
// the board with this phone's own fleet on it, the turn (sonar, the die,
// shots and volleys, bonus shots, done), and the result with every fleet
// revealed and checked against the commitment published when play began.
//
// A phone draws only what its own token reads: another player's fleet
// never reaches it before its cards sink or the game ends.

import { h, add, plural, money, sentence } from './dom.js';
import * as api from './api.js';
import * as outbox from './outbox.js';
import { lastAudit, auditCards, receiptCard } from './audit.js';
import { commitment } from './commit.js';

const ROWS = 'ABCDEFGHIJ';
const KINDS = ['patrol-boat', 'destroyer', 'submarine', 'battleship', 'carrier'];
const LENGTH = { 'patrol-boat': 2, destroyer: 3, submarine: 3, battleship: 4, carrier: 5 };
const KIND_NAME = { 'patrol-boat': 'Patrol boat', destroyer: 'Destroyer', submarine: 'Submarine', battleship: 'Battleship', carrier: 'Aircraft carrier' };

/** royaleTab renders the game in play, or the last result and a start card. */
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
}

// abandonCard is the host's way out of a game nobody will finish: the pot
// goes back to its players, as at closing a table, after a confirmation.
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
      onclick: () => sendGame(s, u, s.path(`/royale/${g.number}/abandon`), undefined, () => { s.ui.abandon = null; }) },
    'Yes, abandon it'),
    h('button.ghost', { type: 'button', onclick: () => { u.ask = false; s.render(); } }, 'Keep playing'));
}

// ui is this phone's state for game g: what is selected and being sent. It
// starts afresh on every new turn, roll or shot, but for the news that
// another phone recorded first, which outlives the one move it caused.
function ui(s, g) {
  const k = `${g.number}/${g.phase}/${g.turn || 0}/${g.die || 0}/${g.board.length}/${g.sonar.length}`;
  const old = s.ui.royale;
  if (!old || old.key !== k) {
    const carried = old && api.recordedSince(old.error) && !old.carried ? old.error : null;
    s.ui.royale = { key: k, sel: [], discards: {}, cards: {}, error: carried, carried: !!carried, busy: false };
  }
  return s.ui.royale;
}

// act sends one action of game g and shows the game it returns. It says
// which state of the game it was entered against (api.seen), so that an
// action another phone recorded meanwhile is not recorded twice.
function act(s, g, body) {
  const path = s.path(`/royale/${g.number}/actions`);
  const waiting = outbox.waiting(s.id).filter((w) => w.path === path).length;
  return sendGame(s, ui(s, g), path, { ...body, ...api.seen(g, waiting) }, () => { s.ui.royale = null; });
}

// sendGame sends a write that answers with a game, retried with the same
// Idempotency-Key until it is answered, and shows the game (after done,
// which drops the card's state); a refusal stays in u.error. A game action
// goes through the outbox: one that cannot be sent now waits there.
async function sendGame(s, u, path, body, done) {
  if (!u.pending || u.pending.path !== path || JSON.stringify(u.pending.body) !== JSON.stringify(body)) {
    u.pending = api.write(path, body, s.token);
  }
  u.busy = true;
  u.error = null;
  s.render();
  try {
    const game = await (path.endsWith('/actions') ? outbox.submit(s.id, u.pending, describe(s, body)) : api.send(u.pending));
    done(game);
    s.setGame(game);
  } catch (err) {
    if (err instanceof outbox.Queued) {
      done(null);
      s.render();
      return;
    }
    u.busy = false;
    u.error = err;
    u.carried = false;
    if (err instanceof api.Problem) u.pending = null;
    // Another phone recorded first: the game as the server has it shows
    // what, and the next move. If this phone heard of it live before the
    // answer came, the turn on screen is already the next one, and says
    // it there, once.
    const news = api.recordedSince(err);
    if (news && s.ui.royale && s.ui.royale !== u) Object.assign(s.ui.royale, { error: err, carried: true });
    s.render();
    if (news) s.refresh();
  }
}

// describe names a game action in plain words, for the outbox on screen.
function describe(s, body) {
  const who = s.name(body.player);
  const what = { hold: 'hold the fleet', keep: 'keep the hand', enter: 'enter the fleet', roll: `roll the die${body.die ? ` (${body.die})` : ''}`,
    shoot: 'shoot', bonus: 'bonus shot', end: 'end the turn', sonar: `sonar ${body.line || ''}` }[body.kind] || body.kind;
  return `${who}: ${what}${body.cells ? ` ${body.cells.join(' ')}` : ''}`;
}

// errorLine shows why the last action was refused; another phone having
// recorded first is news, not an error.
function errorLine(u) {
  if (!u.error) return null;
  if (api.recordedSince(u.error)) return h('p.already', { role: 'status', 'data-testid': 'already' }, sentence(u.error.message));
  return h('p.error', { role: 'alert', 'data-testid': 'reason' }, 'Not recorded: ' + u.error.message);
}

// startGameCard is the host's: who starts, then deal.
function startGameCard(s) {
  const t = s.table;
  const o = t.royale.options;
  const seated = t.players.filter((p) => !p.leftAt);
  const u = s.ui.startGame || (s.ui.startGame = { first: seated.length ? seated[0].id : 0 });
  const n = (t.royale.gamesPlayed || 0) + 1;
  return h('section.card.start-round', { 'data-testid': 'start-game-card' }, h('h2', `Game ${n}`),
    h('p', `${o.mode === 'advanced' ? 'Advanced' : 'Standard'} game · ${o.fleet === 'entered' ? 'cards typed from the box' : 'Tally deals the hands'} · ` +
      `${o.die === 'tally' ? 'Tally rolls the die' : 'the real die'} · ${o.ante > 0 ? `ante ${money(o.ante, t.currency)}` : 'no ante'}` +
      `${o.bounty > 0 ? ` · bounty ${money(o.bounty, t.currency)} per sunk card` : ''}`),
    h('label.field', 'Who starts? (the youngest, says the box)', h('select', { 'data-testid': 'first',
      onchange: (e) => { u.first = Number(e.target.value); } },
      seated.map((p) => h('option', { value: p.id, selected: p.id === u.first }, p.name)))),
    errorLine(u),
    h('button.primary', { type: 'button', 'data-testid': 'start-game', disabled: u.busy,
      onclick: () => sendGame(s, u, s.path('/royale'), { first: u.first }, (game) => {
        s.ui.startGame = null;
        s.table.royale.currentGame = game.number;
      }) }, u.busy ? 'Dealing…' : `Start game ${n}`));
}

// fleetsCard is the start of a game: each player keeps or enters a fleet.
function fleetsCard(s, g) {
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
function entryForm(s, g, player) {
  const u = ui(s, g);
  const n = g.players.length >= 5 ? 2 : 3;
  const cards = u.cards[player] || (u.cards[player] = Array.from({ length: n }, (_, i) => ({ kind: g.options.mode === 'advanced' && i === 0 ? 'submarine' : 'destroyer', cells: '', bonus: 0 })));
  const rows = cards.map((c, i) => h('div.entercard',
    h('select', { 'data-testid': `enter-kind-${i}`, onchange: (e) => { c.kind = e.target.value; } },
      KINDS.map((k) => h('option', { value: k, selected: k === c.kind }, `${KIND_NAME[k]} (${LENGTH[k]})`))),
    h('input', { type: 'text', 'data-testid': `enter-cells-${i}`, placeholder: 'cells, e.g. B2 B3 B4', value: c.cells,
      autocapitalize: 'characters', autocomplete: 'off', oninput: (e) => { c.cells = e.target.value; } }),
    g.options.mode === 'advanced' && h('input.bonus', { type: 'number', min: 0, max: 5, 'aria-label': 'bonus number',
      value: c.bonus, oninput: (e) => { c.bonus = Number(e.target.value) || 0; } })));
  return h('div.enter', h('p', g.options.mode === 'advanced'
    ? `Type your submarine and ${plural(n - 1, 'ship', 'ships')} as the cards show them, with the bonus number printed on each ship (and on the submarine, if it shows one).`
    : `Type the ${n} ship cards you hold, as the cards show them.`), rows,
  h('button.primary', { type: 'button', 'data-testid': 'enter', disabled: u.busy, onclick: () => act(s, g, {
    player, kind: 'enter', fleet: cards.map((c) => ({ kind: c.kind, cells: c.cells.split(/[\s,]+/).filter(Boolean),
      ...(g.options.mode === 'advanced' && c.bonus ? { bonus: c.bonus } : {}) })),
  }) }, u.busy ? 'Sending…' : 'This is my fleet'));
}

// miniBoard draws a few cards on a small grid (the hand being chosen).
function miniBoard(cards) {
  const on = new Set(cards.flatMap((c) => c.cells));
  return h('div.mini', { 'aria-hidden': 'true' }, [...ROWS].flatMap((r) =>
    Array.from({ length: 10 }, (_, c) => h('span', { class: on.has(`${r}${c + 1}`) ? 'ship' : '' }))));
}

// turnCard is whose turn it is and, on the phone that records it, what to do.
function turnCard(s, g) {
  const who = g.turn;
  const mine = s.mayRecordFor(who);
  const u = ui(s, g);
  const me = g.players.find((p) => p.player === who) || {};
  const title = s.me && s.me === who ? 'Your turn' : `${s.name(who)}’s turn`;
  const card = h('section.card.turn', { 'data-testid': 'turn' }, h('h2', { 'data-testid': 'whose-turn' }, title),
    h('p.next', { 'data-testid': 'next' }, nextLine(s, g, mine)));
  if (!mine) return card;
  const controls = h('div.controls');
  if (g.canSonar) controls.append(sonarControl(s, g, u));
  if (!g.die) {
    controls.append(g.options.die === 'tally'
      ? h('button.primary', { type: 'button', 'data-testid': 'roll', disabled: u.busy, onclick: () => act(s, g, { player: who, kind: 'roll' }) }, 'Roll the die')
      : h('div.diepick', h('span', 'The die shows'), [1, 2, 3].map((d) => h('button.die', { type: 'button', 'data-testid': `die-${d}`,
        disabled: u.busy, onclick: () => act(s, g, { player: who, kind: 'roll', die: d }) }, String(d)))));
  } else {
    const advanced = g.options.mode === 'advanced';
    const want = advanced ? g.shotsLeft : Math.min(1, g.shotsLeft);
    if (g.shotsLeft > 0) {
      controls.append(h('button.primary', { type: 'button', 'data-testid': 'fire', disabled: u.busy || u.sel.length !== want,
        onclick: () => act(s, g, { player: who, kind: 'shoot', cells: [...u.sel] }) },
      advanced ? `Fire the volley (${u.sel.length} of ${want})` : u.sel.length ? `Fire at ${u.sel[0]}` : 'Tap a cell to aim'));
    }
    if (!advanced && me.bonusShots > 0) {
      controls.append(h('button', { type: 'button', 'data-testid': 'bonus', disabled: u.busy || u.sel.length !== 1,
        onclick: () => act(s, g, { player: who, kind: 'bonus', cells: [...u.sel] }) },
      `Bonus shot${u.sel.length ? ` at ${u.sel[0]}` : ''} (${me.bonusShots} left)`));
    }
    if (advanced) {
      me.trophies.forEach((tr, i) => {
        if (tr.used || !tr.shots) return;
        controls.append(h('button', { type: 'button', 'data-testid': `bonus-${i + 1}`, disabled: u.busy || u.sel.length !== tr.shots,
          onclick: () => act(s, g, { player: who, kind: 'bonus', card: i + 1, cells: [...u.sel] }) },
        `Bonus volley: ${KIND_NAME[tr.kind] || tr.kind} (${u.sel.length} of ${tr.shots})`));
      });
    }
    if (g.shotsLeft === 0) {
      controls.append(h('button.ghost', { type: 'button', 'data-testid': 'end-turn', disabled: u.busy,
        onclick: () => act(s, g, { player: who, kind: 'end' }) }, 'End the turn'));
    }
  }
  add(card, controls, errorLine(u));
  return card;
}

// nextLine says what the turn waits for.
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
function sonarControl(s, g, u) {
  if (!u.line) u.line = 'A';
  const lines = [...[...ROWS].map((r) => [r, `Row ${r}`]), ...Array.from({ length: 10 }, (_, i) => [String(i + 1), `Column ${i + 1}`])];
  return h('div.sonar', h('select', { 'data-testid': 'sonar-line', onchange: (e) => { u.line = e.target.value; } },
    lines.map(([v, label]) => h('option', { value: v, selected: v === u.line }, label))),
  h('button', { type: 'button', 'data-testid': 'sonar', disabled: u.busy, onclick: () => act(s, g, { player: g.turn, kind: 'sonar', line: u.line }) }, 'Sonar'));
}

// boardCard is the shared grid: pegs for everyone, this phone's own fleet
// under them, every fleet once the game is over. On the turn's phone a tap
// aims.
function boardCard(s, g) {
  const pegs = new Map(g.board.map((p) => [p.cell, p]));
  // This phone's own fleet; the host's phone draws the fleets it holds.
  const own = new Set([...(g.fleet || []), ...(g.held || []).flatMap((x) => x.fleet || [])].flatMap((c) => c.cells));
  const revealed = new Map();
  for (const r of g.revealed || []) for (const c of r.fleet || []) for (const x of c.cells) revealed.set(x, r.player);
  const aiming = g.phase === 'playing' && g.die && s.mayRecordFor(g.turn);
  const u = ui(s, g);
  const limit = g.options.mode === 'advanced' ? Math.max(g.shotsLeft, ...bonusSizes(g)) : 1;
  const grid = h('div.board', { 'data-testid': 'board', role: 'grid' }, h('span.corner'),
    Array.from({ length: 10 }, (_, c) => h('span.collabel', String(c + 1))),
    [...ROWS].map((r) => [h('span.rowlabel', r), Array.from({ length: 10 }, (_, c) => {
      const cell = `${r}${c + 1}`;
      const p = pegs.get(cell);
      const classes = [own.has(cell) ? 'ship' : '', revealed.has(cell) ? 'revealed' : '', p ? p.state : '', u.sel.includes(cell) ? 'sel' : ''];
      const mark = !p ? '' : p.state === 'miss' ? '•' : p.state === 'sunk' ? '■' : p.hits > 1 ? '✕✕' : '✕';
      return h('button.cell', { type: 'button', class: classes.filter(Boolean).join(' '), 'data-cell': cell,
        'aria-label': `${cell}${p ? ` ${p.state}` : ''}${own.has(cell) ? ' your ship' : ''}`,
        disabled: !aiming || !!p || u.busy, onclick: () => {
          u.sel = u.sel.includes(cell) ? u.sel.filter((x) => x !== cell) : [...u.sel, cell].slice(-limit);
          s.render();
        } }, mark);
    })]));
  return h('section.card.boardcard', h('p.legend.swipe', 'Rows A–J, columns 1–10: swipe the board sideways for the last columns.'),
    h('div.boardscroll', grid),
    h('p.legend', own.size ? [h('span.key.ship', ''), (g.held || []).length ? (g.fleet || []).length ? ' your fleet and those you hold  '
      : ' fleets you hold  ' : ' your fleet  '] : null,
      revealed.size ? [h('span.key.revealed', ''), ' fleets revealed at the end  '] : null,
      h('span', '• miss  ✕ hit  ✕✕ double hit  ■ sunk')));
}

// bonusSizes are the sizes of the turn's player's unused bonus volleys.
function bonusSizes(g) {
  const me = g.players.find((p) => p.player === g.turn);
  return me ? me.trophies.filter((t) => !t.used && t.shots > 0).map((t) => t.shots) : [];
}

// playersCard is every player: afloat, out, bonus shots and sonars.
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
function logCard(s, g) {
  if (!g.sunkCards.length && !g.sonar.length) return null;
  return h('section.card', { 'data-testid': 'log' }, h('h2', 'Sunk and heard'),
    h('ul', g.sunkCards.map((k) => h('li', `${s.name(k.shooter)} sank ${s.name(k.owner)}’s ${(KIND_NAME[k.card.kind] || k.card.kind).toLowerCase()} (${k.card.cells.join(' ')})`)),
      g.sonar.map((c) => h('li', `${s.name(c.player)}’s sonar on ${/^\d/.test(c.line) ? 'column' : 'row'} ${c.line}: ${c.ping ? 'ping!' : 'no ping'}`))));
}

// resultCard says who won and what the pot paid, and checks every revealed
// fleet against the commitment published when play began.
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
    check.textContent = ok ? `✓ Every fleet is the one sealed when play began (${Object.keys(g.commitments).length} commitments checked).`
        : '✗ A revealed fleet does not match its commitment: see the History tab’s audit.';
    check.className = ok === false ? 'check error' : 'check';
  });
  return card;
}

// verifyAll recomputes each revealed fleet's commitment (commit.js) and
// compares it with the one published when play began.
async function verifyAll(g) {
  for (const r of g.revealed || []) {
    const want = g.commitments && g.commitments[r.player];
    if (!want || (await commitment(r.fleet, r.salt)) !== want) return false;
  }
  return true;
}

/** gameHistory is a Royale table's History tab: the audit, the receipt and every game, newest first. */
export function gameHistory(el, s) {
  const data = s.load('history', async () => {
    const n = s.table.royale.currentGame || s.table.royale.gamesPlayed || 0;
    const want = Array.from({ length: n }, (_, i) => api.get(s.path(`/royale/${i + 1}`), s.token));
    const [games, audit] = await Promise.allSettled([Promise.all(want), lastAudit(s)]);
    const plain = (r) => (r.status === 'fulfilled' ? { value: r.value } : { error: r.reason.message });
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
  if (!data.games.value.length) el.append(h('p.card', 'No games yet: they show here as soon as the first one starts.'));
  for (const g of [...data.games.value].reverse()) {
    add(el, g.result ? resultCard(s, g) : h('section.card', h('h2', `Game ${g.number}`), h('p', 'In play.')));
    const log = logCard(s, g);
    if (log) el.append(log);
  }
}
