// @ts-check
// royaleact.js is how a Battleship Royale table's phone acts on a game:
// this phone's state for the game (what is selected and being sent), the
// actions sent (through the outbox, with the state they were entered
// against) and the refusals shown, and the game's names for its cards.

import { h, sentence, message } from './dom.js';
import * as api from './api.js';
import * as outbox from './outbox.js';

/** @typedef {import('./session.js').Ready} Ready */
/** @typedef {api.RoyaleGame} RoyaleGame */
/** @typedef {api.Schemas['RoyaleActionRequest']} Move */

/**
 * RoyaleUI is this phone's state for one game (s.ui.royale): the cells
 * selected, the cards discarded or entered, the move being sent (pending)
 * and the refusal to show (carried: from the move before). Other cards of
 * the game (abandon, start) keep only what a Card keeps.
 * @typedef {import('./page.js').Card & { key?: string, sel: string[], discards: Record<string, number[]>,
 *   cards: Record<string, { kind: string, cells: string, bonus: number }[]>, carried?: boolean, line?: string, holdAsk?: number }} RoyaleUI
 */

export const ROWS = 'ABCDEFGHIJ';
export const KINDS = ['patrol-boat', 'destroyer', 'submarine', 'battleship', 'carrier'];
/** @type {Record<string, number>} */
export const LENGTH = { 'patrol-boat': 2, destroyer: 3, submarine: 3, battleship: 4, carrier: 5 };
/** @type {Record<string, string>} */
export const KIND_NAME = { 'patrol-boat': 'Patrol boat', destroyer: 'Destroyer', submarine: 'Submarine', battleship: 'Battleship', carrier: 'Aircraft carrier' };

// ui is this phone's state for game g: what is selected and being sent. It
// starts afresh on every new turn, roll or shot, but for the news that
// another phone recorded first, which outlives the one move it caused.
/** @param {Ready} s @param {RoyaleGame} g @returns {RoyaleUI} */
export function ui(s, g) {
  const k = `${g.number}/${g.phase}/${g.turn || 0}/${g.die || 0}/${g.board.length}/${g.sonar.length}`;
  const old = s.ui.royale;
  if (!old || old.key !== k) {
    const carried = old && api.recordedSince(old.error) && !old.carried ? old.error : null;
    s.ui.royale = { key: k, sel: [], discards: {}, cards: {}, error: carried, carried: !!carried, busy: false };
  }
  return /** @type {RoyaleUI} */ (s.ui.royale); // set just above
}

// act sends one action of game g and shows the game it returns. It says
// which state of the game it was entered against (api.seen), so that an
// action another phone recorded meanwhile is not recorded twice.
/** @param {Ready} s @param {RoyaleGame} g @param {Move} body */
export function act(s, g, body) {
  const next = api.royaleAct(s, g.number, body);
  const waiting = outbox.waiting(s.id).filter((w) => w.path === next.path).length;
  next.body = { ...body, ...api.seen(g, waiting) };
  return sendGame(s, ui(s, g), next, () => { s.ui.royale = null; }, true);
}

// sendGame sends a write that answers with a game, retried with the same
// Idempotency-Key until it is answered, and shows the game (after done,
// which drops the card's state); a refusal stays in u.error. A game action
// goes through the outbox (queued): one that cannot be sent now waits
// there. next is the write as made now; the one made before for the same
// path and body is sent instead, so its key is kept across retries.
/**
 * @template B
 * @param {Ready} s
 * @param {import('./page.js').Card & { pending?: api.Write<unknown, RoyaleGame> | null, carried?: boolean }} u the card sending it, which keeps the write for a retry
 * @param {api.Write<B, RoyaleGame>} next
 * @param {(game: RoyaleGame | null) => void} done
 * @param {boolean} [queued]
 */
export async function sendGame(s, u, next, done, queued = false) {
  const body = next.body;
  if (!u.pending || u.pending.path !== next.path || JSON.stringify(u.pending.body) !== JSON.stringify(body)) {
    u.pending = next;
  }
  u.busy = true;
  u.error = null;
  s.render();
  try {
    const pending = /** @type {api.Write<B, RoyaleGame>} */ (u.pending); // just set
    // Only moves are queued: body is a Move then.
    const game = await (queued ? outbox.submit(s.id, pending, describe(s, /** @type {Move} */ (body))) : api.send(pending));
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
/** @param {Ready} s @param {Move} body */
export function describe(s, body) {
  const who = s.name(body.player);
  const what = /** @type {Record<string, string>} */ ({ hold: 'hold the fleet', keep: 'keep the hand', enter: 'enter the fleet', roll: `roll the die${body.die ? ` (${body.die})` : ''}`,
    shoot: 'shoot', bonus: 'bonus shot', end: 'end the turn', sonar: `sonar ${body.line || ''}` })[body.kind] || body.kind;
  return `${who}: ${what}${body.cells ? ` ${body.cells.join(' ')}` : ''}`;
}

// errorLine shows why the last action was refused; another phone having
// recorded first is news, not an error.
/** @param {import('./page.js').Card} u */
export function errorLine(u) {
  if (!u.error) return null;
  if (api.recordedSince(u.error)) return h('p.already', { role: 'status', 'data-testid': 'already' }, sentence(message(u.error)));
  return h('p.error', { role: 'alert', 'data-testid': 'reason' }, 'Not recorded: ' + message(u.error));
}
