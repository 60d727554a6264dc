// @ts-check
// advisor.js asks POST /v1/odds what each choice is worth right now and
// writes it in one line: "stand: 31% to win / roll both: 44%".

import { h, replace } from './dom.js';
import * as api from './api.js';

/**
 * advisor returns the advisor's line for the turn in play; it fills in when
 * the answer arrives and remembers it, so live re-renders do not ask again.
 * whole leaves out the choices that keep some cargo: a phone that may only
 * throw all of it again (cargo under the cup) cannot take them.
 * @param {import('./session.js').Ready} s
 * @param {api.Round} r
 * @param {import('./play.js').Here['out']} out
 * @param {number[]} cargo
 * @param {boolean} [whole]
 */
export function advisor(s, r, out, cargo, whole = false) {
  const next = /** @type {api.Schemas['Next']} */ (r.next); // asked only while a choice is open
  /** @type {api.Schemas['OddsRequest'] & { cargo: number[] }} */
  const req = {
    ruleset: s.table.ruleset,
    banked: out.banked || [],
    cargo: out.qualified ? cargo : out.cargo || [],
    rollsLeft: next.rollsLeft,
    later: r.turns.filter((t) => t.status === 'waiting').length,
  };
  if (r.point !== undefined) req.point = r.point;
  // A sealed score under another cup cannot be priced: say so.
  const hidden = r.turns.some((t) => t.player !== r.turn && t.outcome.sealed);
  const key = JSON.stringify(req);
  const el = h('p.advisor', { 'data-testid': 'advisor', 'aria-live': 'polite' });
  const odds = s.ui.odds || (s.ui.odds = new Map());
  if (odds.has(key)) {
    fill(el, /** @type {api.Advice} */ (odds.get(key)), req.cargo.length, hidden, whole);
    return el;
  }
  el.textContent = 'Working out the odds…';
  api.odds(req).then((advice) => {
    odds.set(key, advice);
    fill(el, advice, req.cargo.length, hidden, whole);
  }, () => {
    el.textContent = '';
  });
  return el;
}

/**
 * @param {HTMLElement} el @param {api.Advice} advice @param {number} cargoCount
 * @param {boolean} hidden @param {boolean} whole
 */
function fill(el, advice, cargoCount, hidden, whole) {
  const best = advice.best && advice.best.win ? advice.best.win.choice : -1;
  const shown = advice.choices.map((c, i) => ({ c, i }))
    .filter(({ c }) => !whole || c.kind !== 'reroll' || (c.rethrow || []).length === cargoCount);
  replace(el, h('span.muted', 'Odds: '), shown.map(({ c, i }, n) => [
    n > 0 ? ' / ' : '',
    h(i === best ? 'b' : 'span', `${label(c, cargoCount)}: ${pct(c.pWin)} to win`)]),
  hidden ? h('span.muted', ' (scores under a cup not counted)') : null);
}

/** label names a choice the way players say it. @param {api.Schemas['Choice']} c @param {number} cargoCount */
export function label(c, cargoCount) {
  if (c.kind === 'stand') return 'stand';
  if (c.kind === 'roll') return 'roll';
  const n = (c.rethrow || []).length;
  if (n === cargoCount) return cargoCount === 2 ? 'roll both' : 'roll all';
  return `re-roll the ${(c.rethrow || []).join(' & ')}`;
}

/** @param {number} p */
function pct(p) {
  return `${Math.round(p * 100)}%`;
}
