// play.js is the Play tab: whose turn it is and how many dice to throw, the
// entry pad, the engine's verdict, stand / re-roll / claim / lift cups, the
// advisor, and every turn of the round so far.

import { h, add } from './dom.js';
import * as api from './api.js';
import * as outbox from './outbox.js';
import { dice, pad } from './dice.js';
import { turnsCard, resultCard, gameCard } from './result.js';
import { advisor } from './advisor.js';
import { startCard } from './start.js';
import { roundFixes, reversedCard } from './corrections.js';

/** playTab renders the round in play, or the last result and a start button. */
export function playTab(el, s) {
  const t = s.table;
  const r = s.round;
  if (t.status === 'closed') {
    const when = t.closedAt ? new Date(t.closedAt).toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' }) : '';
    el.append(h('section.card', { 'data-testid': 'closed-card' }, h('h2', 'This table is closed'),
      h('p', `${when ? `Closed ${when}. ` : ''}No more rounds: the final balances and who pays whom are on the Money tab.`),
      h('a.button.primary', { href: `#t=${s.id}&tab=money` }, 'See the final balances')));
    if (t.game && t.game.totals) el.append(gameCard(s, t));
    if (r && r.result) el.append(resultCard(s, r));
    return;
  }
  if (t.game && t.game.totals) el.append(gameCard(s, t));
  if (!r || r.status !== 'playing') {
    if (r) add(el, r.status === 'reversed' ? reversedCard(s, r) : resultCard(s, r));
    if (!(t.game && t.game.over) && s.role !== 'audit') el.append(startCard(s));
    if (s.role === 'host') el.append(endNight(s));
    if (r) add(el, turnsCard(s, r, `Round ${r.number}: every throw`), roundFixes(s, r));
    return;
  }
  add(el, turnCard(s, r), turnsCard(s, r), roundFixes(s, r));
}

// endNight takes the host to the Money tab's close confirmation: closing
// happens there, next to the balances it settles.
function endNight(s) {
  return h('section.card', h('a.button.ghost', { href: `#t=${s.id}&tab=money`, 'data-testid': 'end-night',
    onclick: () => { s.ui.close = { confirm: true, scroll: true }; } }, 'Done for the night? Close the table…'));
}

// entryFor keeps what this phone is entering for the current throw; it is
// dropped as soon as the round moves on (here or on another phone).
function entryFor(s, r) {
  const turn = r.turns.find((x) => x.player === r.turn);
  const key = `${r.number}/${r.turn}/${r.next ? r.next.roll : 0}/${turn ? turn.outcome.rolls.length : 0}`;
  if (!s.ui.entry || s.ui.entry.key !== key) s.ui.entry = { key, dice: [], pick: [], rerolling: false };
  return s.ui.entry;
}

// turnCard is the top of the Play tab: the turn in play.
function turnCard(s, r) {
  const who = r.turn;
  const turn = r.turns.find((x) => x.player === who);
  const out = turn ? turn.outcome : { rolls: [], banked: [] };
  const next = r.next || {};
  const e = entryFor(s, r);
  const mine = s.mayRecordFor(who);
  const queued = outbox.waiting(s.id).filter((w) => w.path === s.path(`/rounds/${r.number}/actions`));
  const title = s.role === 'player' && s.me === who ? 'Your turn' : `${s.name(who)}’s turn`;
  const cargo = out.cargo && out.cargo.length ? out.cargo : mine && out.qualified ? next.rerollable || [] : [];
  const card = h('section.card.turn', { 'data-testid': 'turn' },
    h('h2', { 'data-testid': 'whose-turn' }, title),
    r.declared !== undefined && h('p.declared', { 'data-testid': 'declared-score' },
      `Declared score: ${r.declared}${r.declarer ? ` (by ${s.name(r.declarer)})` : ''}`),
    r.playoff && h('p.declared', 'Playoff round: only the tied players throw.'),
    verdict(out, cargo, mine),
    h('p.next', { 'data-testid': 'next' }, queued.length ? waitingLine(queued) : nextLine(s, who, next, out, mine)));
  // The advice comes before the buttons: it is read before deciding.
  // The odds API knows no declared score, so a progressive pot gets no advice.
  if (mine && !queued.length && !next.over && !s.table.ruleset.progressive) card.append(advisor(s, r, out, cargo));
  if (mine) card.append(queued.length ? offlineControls(s, r, e) : controls(s, r, e, out, next, cargo));
  const calls = extras(s, r);
  if (calls) card.append(calls);
  if (e.error) {
    card.append(h('p.error', { role: 'alert', 'data-testid': 'reason' }, 'Not recorded: ' + e.error.message));
  }
  return card;
}

// verdict says what the engine made of the turn so far.
function verdict(out, cargo, mine) {
  const last = out.rolls[out.rolls.length - 1];
  const lines = [];
  if (last && last.sealed && !mine) lines.push(h('p', 'Last throw is under the cup.'));
  else if (last) {
    const b = last.banked || [];
    lines.push(h('p.verdict', { 'data-testid': 'verdict' }, 'Last throw ', dice(last.roll.dice || [], b),
      b.length ? ` banked ${b.join('-')}` : last.cargoReroll ? ' (cargo re-rolled)' : ' banked nothing'));
  }
  if (out.banked && out.banked.length) {
    lines.push(h('p.holding', 'Holding ', dice(out.banked, out.banked), out.qualified && cargo.length ?
      h('span', ' cargo ', dice(cargo), ` = ${cargo.reduce((a, b) => a + b, 0)}`) : null));
  }
  return lines;
}

function nextLine(s, who, next, out, mine) {
  const name = s.role === 'player' && s.me === who ? 'You' : s.name(who);
  if (next.over) return `${name}: turn over.`;
  if (next.throw > 0) return `${mine ? 'Throw' : `Waiting for ${name} to throw`} ${next.throw} ${next.throw === 1 ? 'die' : 'dice'} (roll ${next.roll} of ${next.roll + next.rollsLeft - 1}).`;
  if (next.mayReroll) return `${mine ? 'Stand or re-roll' : `${name} may stand or re-roll`} (${next.rollsLeft} ${next.rollsLeft === 1 ? 'roll' : 'rolls'} left).`;
  if (next.mayStand) return mine ? 'Stand to end the turn.' : `Waiting for ${name} to stand.`;
  return '';
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

// controls are the buttons of the phone that records this turn.
function controls(s, r, e, out, next, cargo) {
  const redraw = () => s.render();
  const badDie = e.error && e.error.roll === next.roll ? e.error.die : 0;
  if (next.throw > 0) {
    const both = (s.table.ruleset.sequences || []).length > 1 && !(out.banked || []).length &&
      e.dice.includes(6) && e.dice.includes(1);
    const extra = both ? { blocked: !e.path, node: h('div.choice', h('p', 'Both a 6 and a 1: which way?'),
      ['6-5-4', '1-2-3'].map((p) => h('button', { type: 'button', class: e.path === p ? 'on' : '',
        onclick: () => { e.path = p; redraw(); } }, p))) } : null;
    return pad({ need: next.throw, entry: e, onChange: redraw, busy: e.busy, bad: badDie, extra,
      sendLabel: recordLabel,
      onSend: () => send(s, r, e, { player: r.turn, kind: 'roll', dice: [...e.dice], ...(both ? { path: e.path } : {}) }) });
  }
  if (!next.mayStand && !next.mayReroll) return null;
  if (!e.rerolling) {
    const all = next.rerollAll || (next.rerollable || []).length === 1;
    return h('div.actions',
      next.mayStand && h('button.primary', { type: 'button', disabled: e.busy, 'data-testid': 'stand',
        onclick: () => send(s, r, e, { player: r.turn, kind: 'stand' }) }, `Stand on ${cargo.reduce((a, b) => a + b, 0)}`),
      next.mayReroll && h('button.primary.alt', { type: 'button', disabled: e.busy, 'data-testid': 'reroll',
        onclick: () => {
          e.rerolling = true;
          e.pickIdx = all ? next.rerollable.map((_, i) => i) : [];
          e.pick = e.pickIdx.map((i) => next.rerollable[i]);
          redraw();
        } },
        all ? (cargo.length === 2 ? 'Re-roll both' : 'Re-roll the cargo') : 'Re-roll…'));
  }
  const rethrow = next.rerollAll ? next.rerollable : e.pick;
  const picker = !next.rerollAll && h('div.picker', h('p', 'Tap the cargo dice you pick up:'),
    h('div.tray', next.rerollable.map((f, i) => h('button.traydie', {
      type: 'button', class: e.pickIdx && e.pickIdx.includes(i) ? 'on' : '', 'aria-label': `pick up ${f}`,
      onclick: () => { togglePick(e, next.rerollable, i); redraw(); },
    }, dice([f], [], 'md')))));
  return h('div.reroll', picker,
    rethrow.length > 0 && h('p', `Now tap what the ${rethrow.length === 1 ? 'die shows' : `${rethrow.length} dice show`}:`),
    rethrow.length > 0 && pad({ need: rethrow.length, entry: e, onChange: redraw, busy: e.busy, bad: badDie,
      sendLabel: (n) => `Record the re-roll (${n})`,
      onSend: () => send(s, r, e, { player: r.turn, kind: 'roll', dice: [...e.dice], rethrow: [...rethrow] }) }),
    h('button.ghost', { type: 'button', onclick: () => { e.rerolling = false; e.dice = []; e.pick = []; e.pickIdx = []; redraw(); } }, 'Back'));
}

// recordLabel names the send button after the dice entered.
function recordLabel(n) {
  return n ? `Record ${n} ${n === 1 ? 'die' : 'dice'}` : 'Tap the dice you see';
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

// extras are the calls anyone's phone may have to make for its player: claim
// a closed automatic in time, or lift the cups of the closed rollers.
function extras(s, r) {
  const out = [];
  const a = r.claimableAutomatic;
  if (a && s.mayRecordFor(a)) {
    out.push(h('button.primary.gold', { type: 'button', 'data-testid': 'claim',
      onclick: () => send(s, r, entryFor(s, r), { player: a, kind: 'claim-automatic' }) },
    `Claim the automatic${s.role === 'host' ? ` for ${s.name(a)}` : ''}`));
  }
  if (r.mayLiftCups && s.mayRecordFor(r.turn)) {
    out.push(h('button.primary.gold', { type: 'button', 'data-testid': 'lift',
      onclick: () => send(s, r, entryFor(s, r), { player: r.turn, kind: 'lift-cups' }) }, 'Lift the cups!'));
  }
  return out.length ? h('div.actions', out) : null;
}

// send records one action through the outbox. The key is made once per
// intended action and kept while the network is down, so retries cannot
// record it twice; a refusal drops it, since a corrected entry is a new
// intention. An action that cannot be sent now waits in the outbox, and
// the pad is free for the next one.
async function send(s, r, e, body) {
  const path = s.path(`/rounds/${r.number}/actions`);
  if (!e.pending || JSON.stringify(e.pending.body) !== JSON.stringify(body)) e.pending = api.write(path, body, s.token);
  e.busy = true;
  e.error = null;
  s.render();
  try {
    const round = await outbox.submit(s.id, e.pending, describe(s, body));
    s.ui.entry = null;
    s.setRound(round);
  } catch (err) {
    if (err instanceof outbox.Queued) {
      s.ui.entry = null;
      s.render();
      return;
    }
    e.busy = false;
    e.error = err;
    if (err instanceof api.Problem) e.pending = null;
    s.render();
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
