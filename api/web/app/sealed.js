// @ts-check
// sealed.js is what this phone remembers of the closed rolls it typed
// itself. The server shows a closed roll only to its player's token, so
// the host's phone, recording for a player without a phone, gets a cup back
// for the dice it has just typed. It remembers them here, in this phone's
// storage only: the server never reveals them, another phone (another host
// phone included) never has them, and they are forgotten once the round is
// over, when every cup is lifted anyway.

const PREFIX = 'tally.sealed.';

/** @typedef {import('./api.js').Schemas} Schemas */

/**
 * Typed is what this phone remembers of one closed roll: the dice it typed,
 * and the cargo they leave (null: not a cargo re-roll, or not known).
 * @typedef {{ dice: number[], cargo: number[] | null }} Typed
 */

/**
 * Seen is a roll as this phone shows it: the server's, with a sealed roll
 * this phone typed filled in (typedHere).
 * @typedef {Schemas['RollResult'] & { typedHere?: boolean }} Seen
 */

/**
 * Memo is what rememberTyped is told of a throw: the roll's number (1-based)
 * and, for a cargo re-roll, the cargo before it (null: not known here).
 * @typedef {{ roll: number, before?: number[] | null }} Memo
 */

/**
 * load reads a table's memory: {"round/player/roll": {dice, cargo}}.
 * @param {number} table
 * @returns {Record<string, Typed>}
 */
function load(table) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + table) || '{}') || {};
  } catch {
    return {};
  }
}

/**
 * store writes a table's memory back, or drops it when empty.
 * @param {number} table
 * @param {Record<string, Typed>} all
 */
function store(table, all) {
  try {
    if (Object.keys(all).length) localStorage.setItem(PREFIX + table, JSON.stringify(all));
    else localStorage.removeItem(PREFIX + table);
  } catch {
    // Storage full or switched off: the phone shows the cup, as any other.
  }
}

// remember keeps the dice this phone typed for roll `roll` (1-based) of
// player's turn in round `round`, and the cargo they leave (null when the
// throw was not a cargo re-roll).
/**
 * @param {number} table @param {number} round @param {number} player @param {number} roll
 * @param {number[]} dice @param {number[] | null} cargo
 */
function remember(table, round, player, roll, dice, cargo) {
  const all = load(table);
  all[`${round}/${player}/${roll}`] = { dice: [...dice], cargo: cargo ? [...cargo] : null };
  store(table, all);
}

/**
 * rememberTyped keeps a throw this phone typed (body, a roll action) if
 * the answer (round) shows it sealed from this phone's token. memo holds
 * the roll's number and, for a cargo re-roll, the cargo before it (null
 * when this phone did not know it).
 * @param {number} table
 * @param {Schemas['Round']} round
 * @param {Schemas['ActionRequest']} body
 * @param {Memo} memo
 */
export function rememberTyped(table, round, body, memo) {
  const turn = round.turns.find((x) => x.player === body.player);
  const roll = turn && turn.outcome.rolls[memo.roll - 1];
  if (!roll || !roll.sealed) return;
  const reroll = 'before' in memo;
  const cargo = reroll && (memo.before || !body.rethrow) ? cargoAfter(memo.before || [], body.rethrow, body.dice) : null;
  remember(table, round.number, body.player || 0, memo.roll, body.dice || [], cargo);
}

/**
 * recall is what this phone typed for that roll, or null.
 * @param {number} table @param {number} round @param {number} player @param {number} roll
 * @returns {Typed | null}
 */
function recall(table, round, player, roll) {
  return load(table)[`${round}/${player}/${roll}`] || null;
}

/**
 * keepOnly forgets every closed roll of the table except those of round
 * `playing` (0: forget them all), once a round is settled or left behind.
 * @param {number} table
 * @param {number} playing
 */
export function keepOnly(table, playing) {
  const all = load(table);
  let changed = false;
  for (const k of Object.keys(all)) {
    if (Number(k.split('/')[0]) !== playing) {
      delete all[k];
      changed = true;
    }
  }
  if (changed) store(table, all);
}

/**
 * turnSeen fills in a turn's sealed rolls with what this phone typed, as
 * far as it remembers them: rolls (a remembered one marked typedHere) and
 * the turn's cargo as this phone knows it, or null when a roll it does not
 * remember (or a closed throw for the sequence) may have changed it.
 * @param {number} table
 * @param {number} round
 * @param {number} player
 * @param {Schemas['TurnOutcome']} outcome
 * @returns {{ rolls: Seen[], cargo: number[] | null }}
 */
export function turnSeen(table, round, player, outcome) {
  /** @type {number[] | null} */
  let cargo = null;
  /** @type {Seen[]} */
  const rolls = outcome.rolls.map((roll, i) => {
    if (!roll.sealed) {
      if (roll.cargo && roll.cargo.length) cargo = roll.cargo;
      return roll;
    }
    const m = recall(table, round, player, i + 1);
    cargo = m ? m.cargo : null;
    return m ? { ...roll, roll: { dice: m.dice }, typedHere: true } : roll;
  });
  return { rolls, cargo };
}

// cargoAfter is the cargo a re-roll leaves: the cargo before it, less the
// dice picked up, plus the new throw, highest first as the engine lists
// cargo. Picking up none by name throws all of it again.
/** @param {number[]} before @param {number[] | undefined} rethrow @param {number[] | undefined} dice */
function cargoAfter(before, rethrow, dice) {
  dice = dice || []; // a roll action always names its dice
  if (!rethrow || !rethrow.length) return [...dice].sort((a, b) => b - a);
  const left = [...before];
  for (const f of rethrow) {
    const i = left.indexOf(f);
    if (i >= 0) left.splice(i, 1);
  }
  return [...left, ...dice].sort((a, b) => b - a);
}
