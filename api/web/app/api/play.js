// @ts-check
// api/play.js builds the paths of play: a table's rounds of dice and its
// games of Battleship Royale, and the corrections of a round. The app
// reaches them through api.js.

import { get, getAll, post, tablePath } from './http.js';

/** @typedef {import('../api.js').Schemas} Schemas */
/** @typedef {import('../api.js').Door} Door */
/** @template [B=unknown], [R=unknown] @typedef {import('./http.js').Write<B, R>} Write */

/** @param {Door} t @param {number} n */
export const round = (t, n) => /** @type {Promise<Schemas['Round']>} */ (get(`${tablePath(t.id)}/rounds/${n}`, t.token));

/** rounds lists every round of a table, oldest first. @param {Door} t */
export const rounds = (t) => /** @type {Promise<import('../api.js').RoundSummary[]>} */ (getAll(`${tablePath(t.id)}/rounds?limit=100`, t.token, 'rounds'));

/** @param {Door} t @param {Schemas['StartRoundRequest'] | undefined} body @returns {Write<Schemas['StartRoundRequest'] | undefined, Schemas['Round']>} */
export const startRound = (t, body) => post(`${tablePath(t.id)}/rounds`, body, t.token);

/**
 * roundActions is the path a round's actions are written to (the outbox
 * compares it to tell which waiting writes are this round's).
 * @param {Door} t @param {number} n
 */
export const roundActions = (t, n) => `${tablePath(t.id)}/rounds/${n}/actions`;

/** @param {Door} t @param {number} n @param {Schemas['ActionRequest']} body @returns {Write<Schemas['ActionRequest'], Schemas['Round']>} */
export const act = (t, n, body) => post(roundActions(t, n), body, t.token);

/** @param {Door} t @param {number} n @param {Schemas['CorrectionRequest'] | undefined} body (none: no reason given) @returns {Write<Schemas['CorrectionRequest'] | undefined, Schemas['Round']>} */
export const takeBack = (t, n, body) => post(`${tablePath(t.id)}/rounds/${n}/take-back`, body, t.token);

/** @param {Door} t @param {number} n @param {Schemas['CorrectionRequest'] | undefined} body (none: no reason given) @returns {Write<Schemas['CorrectionRequest'] | undefined, Schemas['Round']>} */
export const reverseRound = (t, n, body) => post(`${tablePath(t.id)}/rounds/${n}/reverse`, body, t.token);

/** @param {Door} t @param {number} n */
export const royale = (t, n) => /** @type {Promise<Schemas['RoyaleGame']>} */ (get(`${tablePath(t.id)}/royale/${n}`, t.token));

/** @param {Door} t @param {Schemas['StartRoyaleRequest']} body @returns {Write<Schemas['StartRoyaleRequest'], Schemas['RoyaleGame']>} */
export const startRoyale = (t, body) => post(`${tablePath(t.id)}/royale`, body, t.token);

/** @param {Door} t @param {number} n @param {Schemas['RoyaleActionRequest']} body @returns {Write<Schemas['RoyaleActionRequest'], Schemas['RoyaleGame']>} */
export const royaleAct = (t, n, body) => post(`${tablePath(t.id)}/royale/${n}/actions`, body, t.token);

/** @param {Door} t @param {number} n @returns {Write<undefined, Schemas['RoyaleGame']>} */
export const abandonRoyale = (t, n) => post(`${tablePath(t.id)}/royale/${n}/abandon`, undefined, t.token);
