// play.js is the Play tab: whose turn it is and how many dice to throw, the
// entry pad, the engine's verdict, stand / re-roll / claim / lift cups, the
// advisor, and every turn of the round so far.

import { h, add, plural, sentence } from './dom.js';
import * as api from './api.js';
import * as outbox from './outbox.js';
import { dice, pad, cup as cupIcon } from './dice.js';
import { rememberTyped, turnSeen, keepOnly } from './sealed.js';
import { turnsCard, resultCard, gameCard, names } from './result.js';
import { advisor } from './advisor.js';
import { startCard } from './start.js';
import { roundFixes, reversedCard } from './corrections.js';
import { cameraTool } from './camera.js';

/** playTab renders the round in play, or the last result and a start button. */
export function playTab(el, s) {
  const t = s.table;
  const r = s.round;
  // What this phone remembers of closed rolls it typed lasts the round.
  keepOnly(s.id, r && r.status === 'playing' ? r.number : 0);
  if (t.status === 'closed') {
    const when = t.closedAt ? new Date(t.closedAt).toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' }) : '';
    el.append(h('section.card', { 'data-testid': 'closed-card' }, h('h2', 'This table is closed'),
      h('p', `${when ? `Closed ${when}. ` : ''}No more rounds: the final balances and who pays whom are on the Money tab.`),
      h('a.button.primary', { href: `#t=${s.id}&tab=money` }, 'See the final balances')));
    if (t.game && t.game.totals) el.append(gameCard(s, t));
    if (r && r.result) el.append(resultCard(s, r));
    return;
  }
  const game = t.game && t.game.totals ? gameCard(s, t) : null;
  if (!r || r.status !== 'playing') {
    add(el, game);
    if (r) add(el, r.status === 'reversed' ? reversedCard(s, r) : resultCard(s, r));
    if (!(t.game && t.game.over) && s.role !== 'audit') el.append(startCard(s));
    if (s.role === 'host') el.append(endNight(s));
    if (r) add(el, turnsCard(s, r, `Round ${r.number}: every throw`), roundFixes(s, r));
    return;
  }
  // The turn comes first, where the thumb is; a game's totals after it.
  const card = turnCard(s, r);
  add(el, card, game, turnsCard(s, r), roundFixes(s, r));
  if (s.ui.showTurn) {
    s.ui.showTurn = false;
    showTurn(card);
  }
}

// showTurn scrolls the turn card up under the header when it is not in
// full view once drawn. It runs after this phone's own write only (set
// s.ui.showTurn): the thumb that tapped far down the page, where the new
// turn would be out of sight, is the one that will tap next; a live update
// never moves the page under someone reading further down. It scrolls at
// once, while drawing, so the page never shows the button where it was.
function showTurn(card) {
  if (!card.isConnected) return;
  const top = document.querySelector('header.top')?.getBoundingClientRect().bottom ?? 0;
  const bottom = document.querySelector('nav.tabs')?.getBoundingClientRect().top ?? innerHeight;
  const r = card.getBoundingClientRect();
  if (r.top < top || r.bottom > bottom) window.scrollBy(0, r.top - top - 8);
}

// endNight takes the host to the Money tab's close confirmation: closing
// happens there, next to the balances it settles.
function endNight(s) {
  return h('section.card', h('a.button.ghost', { href: `#t=${s.id}&tab=money`, 'data-testid': 'end-night',
    onclick: () => { s.ui.close = { confirm: true, scroll: true }; } }, 'Done for the night? Close the table…'));
}

// entryFor keeps what this phone is entering for the current throw; it is
// dropped as soon as the round moves on (here or on another phone). A
// refusal outlives the one move that follows it: a phone refused because
// another phone recorded the throw first catches up and still says why.
function entryFor(s, r) {
  const turn = r.turns.find((x) => x.player === r.turn);
  const key = `${r.number}/${r.turn}/${r.next ? r.next.roll : 0}/${turn ? turn.outcome.rolls.length : 0}`;
  const old = s.ui.entry;
  if (!old || old.key !== key) {
    const carried = old && old.error instanceof api.Problem && !old.carried ? old.error : null;
    s.ui.entry = { key, dice: [], pick: [], rerolling: false, error: carried, carried: !!carried };
  }
  return s.ui.entry;
}

// turnCard is the top of the Play tab: the turn in play, as what to know
// (whose turn, the verdict, what next, a refusal, the odds) and what to tap
// (the pad or the choices), which a phone on its side shows side by side.
function turnCard(s, r) {
  const who = r.turn;
  const turn = r.turns.find((x) => x.player === who);
  const e = entryFor(s, r);
  const mine = s.mayRecordFor(who);
  const t = turnHere(s, r, turn, mine);
  const next = r.next || {};
  const queued = outbox.waiting(s.id).filter((w) => w.path === s.path(`/rounds/${r.number}/actions`));
  const title = s.me && s.me === who ? 'Your turn' : `${s.name(who)}’s turn`;
  const info = h('div.turninfo',
    h('h2', { 'data-testid': 'whose-turn' }, title),
    r.declared !== undefined && h('p.declared', { 'data-testid': 'declared-score' },
      `Declared score: ${r.declared}${r.declarer ? ` (by ${s.name(r.declarer)})` : ''}`),
    r.playoff && h('p.declared', { 'data-testid': 'playoff-round' }, playoffLine(s)),
    // Once re-rolling, the last throw is history: the cargo is what counts.
    !e.rerolling && verdict(t, 'last'), verdict(t, 'holding'),
    h('p.next', { 'data-testid': 'next' }, queued.length ? waitingLine(queued)
      : mine && e.rerolling ? rerollLine(s, t, next) : nextLine(s, who, next, mine)));
  if (e.error) info.append(refusal(e.error));
  // The advice comes just before the buttons: it is read before deciding,
  // so it shows while there is a choice to make. The odds API knows no
  // declared score, so a progressive pot gets no advice; nor does cargo
  // under a cup this phone did not see. A closed automatic this phone may
  // claim is not priced as a stand: claiming it wins the pot now.
  const choice = (next.mayStand || next.mayReroll) && !e.rerolling;
  const claim = claimButton(s, r);
  const advice = mine && !queued.length && choice && (r.claimableAutomatic === who && claim ? claimAdvice()
    : !s.table.ruleset.progressive && t.known && advisor(s, r, t.out, t.cargo, t.cup));
  return h('section.card.turn', { 'data-testid': 'turn' }, info,
    add(h('div.turncontrols'), advice, claim, mine && (queued.length ? offlineControls(s, r, e) : controls(s, r, e, t, next)),
      liftCups(s, r)));
}

// claimAdvice stands for the odds while the turn's player may claim a
// closed automatic: nothing beats it. One short line, so that the claim
// and Stand still fit a small phone's screen above the tab bar.
function claimAdvice() {
  return h('p.advisor', { 'data-testid': 'advisor' }, h('span.muted', 'Odds: '), h('b', 'claim the automatic: it wins the pot now.'));
}

// refusal says why this phone's last entry was not recorded. Another
// phone having recorded it first is no error: the server's words say what
// it recorded and whose phone did, and the turn has moved on.
function refusal(err) {
  if (api.recordedSince(err)) return h('p.already', { role: 'status', 'data-testid': 'already' }, sentence(err.message));
  return h('p.error', { role: 'alert', 'data-testid': 'reason' }, 'Not recorded: ' + err.message);
}

// waitingLine replaces the engine's next step while this round's writes
// wait to be sent: the phone cannot know it until the server has them.
function waitingLine(queued) {
  return `${queued.length} waiting to send. Enter the next throw if there is one: Tally checks each throw when it gets it.`;
}

// offlineControls are what this phone may record while its writes wait:
// another throw (up to five dice, the engine judges when it gets it) or a
// stand.
function offlineControls(s, r, e) {
  return h('div.reroll', pad({ need: 0, entry: e, onChange: () => s.render(), busy: e.busy, sendLabel: recordLabel,
    onSend: () => send(s, r, e, { player: r.turn, kind: 'roll', dice: [...e.dice] }) }),
  h('button.ghost', { type: 'button', disabled: e.busy, 'data-testid': 'stand',
    onclick: () => send(s, r, e, { player: r.turn, kind: 'stand' }) }, 'Stand'));
}

// rerollPlan is what a re-roll may pick up: the cargo faces this phone
// knows (faces), whether all of it is thrown again (whole) and how many
// dice that is (count). Cargo under the cup is thrown again whole: only
// the player's own phone may name the dice picked up (the server refuses
// anyone else).
function rerollPlan(s, t, next) {
  const faces = t.cup ? t.cargo : next.rerollable || [];
  const whole = !!next.rerollAll || t.cup || faces.length === 1;
  return { faces, whole, count: t.known ? t.cargo.length : s.table.ruleset.cargoDice };
}

// rerollLine says what a re-roll throws; the pad says what to tap.
function rerollLine(s, t, next) {
  const { whole, count } = rerollPlan(s, t, next);
  if (!whole) return 'Pick up the cargo dice to re-roll.';
  return `Re-rolling ${count === 2 ? 'both cargo dice' : count === 1 ? 'the cargo die' : `all ${count} cargo dice`}.`;
}

// playoffLine says who throws in a playoff round, and why.
function playoffLine(s) {
  const g = s.table.game;
  return g && g.playoff && g.playoff.length ? `Playoff to decide the tied game: only ${names(s, g.playoff)} throw.`
    : 'Playoff round: only the tied players throw.';
}

/**
 * turnHere is the turn as this phone may show it: the server's view, with
 * any closed roll sealed from this token filled in from what this phone
 * typed itself (sealed.js). cup says the cargo is under the cup for this
 * token; known says this phone knows the cargo all the same.
 */
function turnHere(s, r, turn, mine) {
  const raw = turn ? turn.outcome : { rolls: [], banked: [] };
  if (!raw.sealed) {
    const cargo = raw.cargo && raw.cargo.length ? raw.cargo : mine && raw.qualified ? (r.next || {}).rerollable || [] : [];
    return { out: raw, cargo, cup: false, known: true };
  }
  const seen = turnSeen(s.id, r.number, r.turn, raw);
  return { out: { ...raw, rolls: seen.rolls }, cargo: seen.cargo || [], cup: true, known: !!seen.cargo };
}

// verdict says what the engine made of the turn so far: the last throw
// (part 'last') or what the turn holds (part 'holding'). A re-roll's dice
// are the cargo the holding line shows, so it gets no line of its own,
// only a word on who can see it when it is under the cup.
function verdict({ out, cargo, cup, known }, part) {
  const last = out.rolls[out.rolls.length - 1];
  if (part === 'last') {
    if (!last) return null;
    if (last.sealed && !last.typedHere) return h('p.verdict', 'Last throw ', cupIcon(), ' is under the cup.');
    if (last.typedHere && last.cargoReroll) return h('p.undercup', { 'data-testid': 'verdict' }, 'Re-rolled under the cup: only this phone sees it.');
    if (last.cargoReroll) return null;
    const b = last.banked || [];
    return h('p.verdict', { 'data-testid': 'verdict' }, 'Last throw ', dice(last.roll.dice || [], b),
      b.length ? ` banked ${b.join('-')}` : ' banked nothing', last.typedHere && h('span.undercup', ' — under the cup'));
  }
  if (!out.banked || !out.banked.length) return null;
  return h('p.holding', { 'data-testid': 'holding' }, 'Holding ', dice(out.banked, out.banked), out.qualified && cargo.length ?
    h('span', ' cargo ', dice(cargo), ` = ${sum(cargo)}`) : null, out.qualified && cup && !known && ' cargo under the cup');
}

function sum(faces) {
  return faces.reduce((a, b) => a + b, 0);
}

function nextLine(s, who, next, mine) {
  const name = s.me && s.me === who ? 'You' : s.name(who);
  if (next.over) return `${name}: turn over.`;
  if (next.throw > 0) return `${mine ? 'Throw' : `Waiting for ${name} to throw`} ${plural(next.throw, 'die', 'dice')} (roll ${next.roll} of ${next.roll + next.rollsLeft - 1}).`;
  if (next.mayReroll) return `${mine ? 'Stand or re-roll' : `${name} may stand or re-roll`} (${plural(next.rollsLeft, 'roll', 'rolls')} left).`;
  if (next.mayStand) return mine ? 'Stand to end the turn.' : `Waiting for ${name} to stand.`;
  return '';
}

// controls are the buttons of the phone that records this turn.
function controls(s, r, e, t, next) {
  const redraw = () => s.render();
  const badDie = e.error && e.error.roll === next.roll ? e.error.die : 0;
  const { out, cargo, cup, known } = t;
  if (next.throw > 0) {
    const both = (s.table.ruleset.sequences || []).length > 1 && !(out.banked || []).length &&
      e.dice.includes(6) && e.dice.includes(1);
    const extra = both ? { blocked: !e.path, node: h('div.choice', h('p', 'Both a 6 and a 1: which way?'),
      ['6-5-4', '1-2-3'].map((p) => h('button', { type: 'button', class: e.path === p ? 'on' : '',
        onclick: () => { e.path = p; redraw(); } }, p))) } : null;
    return pad({ need: next.throw, entry: e, onChange: redraw, busy: e.busy, bad: badDie, extra,
      sendLabel: recordLabel, tool: cameraTool({ need: next.throw, entry: e, onChange: redraw, busy: e.busy }),
      onSend: () => send(s, r, e, { player: r.turn, kind: 'roll', dice: [...e.dice], ...(both ? { path: e.path } : {}) },
        { roll: next.roll }) });
  }
  if (!next.mayStand && !next.mayReroll) return null;
  const { faces, whole, count } = rerollPlan(s, t, next);
  if (!e.rerolling) {
    const stand = known ? `Stand on ${sum(cargo)}${cup ? ' — under the cup' : ''}` : 'Stand (under the cup)';
    return h('div.actions',
      next.mayStand && h('button.primary', { type: 'button', disabled: e.busy, 'data-testid': 'stand',
        onclick: () => send(s, r, e, { player: r.turn, kind: 'stand' }) }, stand),
      next.mayReroll && h('button.primary.alt', { type: 'button', disabled: e.busy, 'data-testid': 'reroll',
        onclick: () => {
          e.rerolling = true;
          e.pickIdx = whole ? faces.map((_, i) => i) : [];
          e.pick = e.pickIdx.map((i) => faces[i]);
          redraw();
        } },
        whole ? (count === 2 ? 'Re-roll both' : 'Re-roll the cargo') : 'Re-roll…'));
  }
  const rethrow = whole ? (cup ? [] : faces) : e.pick;
  const need = whole ? count : e.pick.length;
  const back = h('button.ghost.back', { type: 'button', 'data-testid': 'back',
    onclick: () => { e.rerolling = false; e.dice = []; e.pick = []; e.pickIdx = []; redraw(); } }, 'Back');
  const picker = !whole && h('div.tray.picker', { 'aria-label': 'the cargo: tap the dice you pick up' },
    faces.map((f, i) => h('button.traydie', {
      type: 'button', class: e.pickIdx && e.pickIdx.includes(i) ? 'on' : '', 'aria-label': `pick up ${f}`,
      onclick: () => { togglePick(e, faces, i); redraw(); },
    }, dice([f], [], 'md'))));
  return h('div.reroll', picker,
    need > 0 ? pad({ need, entry: e, onChange: redraw, busy: e.busy, bad: badDie, aside: back,
      sendLabel: recordLabel, tool: cameraTool({ need, entry: e, onChange: redraw, busy: e.busy }),
      onSend: () => send(s, r, e, { player: r.turn, kind: 'roll', dice: [...e.dice], ...(rethrow.length ? { rethrow: [...rethrow] } : {}) },
        { roll: next.roll, before: known ? cargo : null }) }) : back);
}

// recordLabel names the send button of a whole throw.
function recordLabel(n) {
  return `Record ${plural(n, 'die', 'dice')}`;
}

// togglePick picks up or puts down cargo die i; pick holds the faces.
function togglePick(e, faces, i) {
  e.pickIdx = e.pickIdx || [];
  const at = e.pickIdx.indexOf(i);
  if (at >= 0) e.pickIdx.splice(at, 1);
  else e.pickIdx.push(i);
  e.pick = e.pickIdx.map((j) => faces[j]);
  e.dice = e.dice.slice(0, e.pick.length);
}

// claimButton claims a closed automatic in time, on the phone the server
// says may: the player's own, or the host's that recorded the throw (for a
// player without a phone). It comes first: nothing beats it, and it lasts
// only until the next player's first throw.
function claimButton(s, r) {
  const a = r.claimableAutomatic;
  if (!a || !s.mayRecordFor(a)) return null;
  return h('button.primary.gold', { type: 'button', 'data-testid': 'claim',
    onclick: () => send(s, r, entryFor(s, r), { player: a, kind: 'claim-automatic' }) },
  `Claim the automatic${a !== s.me ? ` for ${s.name(a)}` : ''}`);
}

// liftCups is the call of a player who completed the sequence within two
// rolls: the earlier closed rollers lift their cups for everyone to see,
// before the player decides. It says so, and stands apart from Stand, so
// that neither is tapped for the other.
function liftCups(s, r) {
  if (!r.mayLiftCups || !s.mayRecordFor(r.turn)) return null;
  const at = r.turns.findIndex((t) => t.player === r.turn);
  const cups = r.turns.slice(0, at).filter((t) => t.outcome.closed && !t.revealed).map((t) => t.player);
  const you = s.me === r.turn;
  return h('div.lift', { 'data-testid': 'lift-card' },
    h('p', { 'data-testid': 'lift-why' }, `${you ? 'You' : s.name(r.turn)} may call ${cups.length ? names(s, cups) : 'the earlier closed rollers'} ` +
      `to lift ${cups.length === 1 ? 'the cup: what is under it is' : 'their cups: what is under them is'} shown to everyone ` +
      `before ${you ? 'you decide' : `${s.name(r.turn)} decides`} to stand or roll again.`),
    h('button.primary.gold', { type: 'button', 'data-testid': 'lift',
      onclick: () => send(s, r, entryFor(s, r), { player: r.turn, kind: 'lift-cups' }) }, 'Lift the cups!'));
}

// send records one action through the outbox. The key is made once per
// intended action and kept while the network is down, so retries cannot
// record it twice; a refusal drops it, since a corrected entry is a new
// intention. The action says which state of the round it was entered
// against (api.seen: the round this pad was drawn from, and this phone's
// own actions waiting before it), so that a throw another phone recorded
// meanwhile is not recorded twice: that refusal is shown as news, and the
// pad moves on. An action that cannot be sent now waits in the outbox,
// and the pad is free for the next one. A throw the answer shows sealed
// from this token is remembered on this phone (memo: the roll's number
// and, for a re-roll, the cargo before it).
async function send(s, r, e, action, memo) {
  const path = s.path(`/rounds/${r.number}/actions`);
  const body = { ...action, ...api.seen(r, outbox.waiting(s.id).filter((w) => w.path === path).length) };
  if (!e.pending || JSON.stringify(e.pending.body) !== JSON.stringify(body)) e.pending = api.write(path, body, s.token);
  e.busy = true;
  e.error = null;
  s.render();
  try {
    const round = await outbox.submit(s.id, e.pending, describe(s, body));
    if (memo) rememberTyped(s.id, round, body, memo);
    s.ui.entry = null;
    s.ui.showTurn = true;
    s.setRound(round);
  } catch (err) {
    if (err instanceof outbox.Queued) {
      s.ui.entry = null;
      s.render();
      return;
    }
    e.busy = false;
    e.error = err;
    e.carried = false;
    if (api.recordedSince(err)) {
      // The throw is recorded: the pad moves on. If this phone heard of it
      // live before the answer came, the entry on screen is already the
      // next one, and says it there, once.
      Object.assign(e, { dice: [], pick: [], pickIdx: [], rerolling: false });
      if (s.ui.entry && s.ui.entry !== e) Object.assign(s.ui.entry, { error: err, carried: true });
    }
    s.render();
    // A refusal may mean this phone missed a throw another phone recorded:
    // it reads the round again to show where the turn really stands.
    if (err instanceof api.Problem) {
      e.pending = null;
      s.refresh();
    }
  }
}

// describe names an action in plain words, for the outbox on screen.
function describe(s, body) {
  const who = s.name(body.player);
  if (body.kind === 'roll') return `${who}: ${body.rethrow ? 're-roll' : 'throw'} ${body.dice.join(' ')}`;
  if (body.kind === 'stand') return `${who}: stand`;
  if (body.kind === 'claim-automatic') return `${who}: claim the automatic`;
  return `${who}: lift the cups`;
}
