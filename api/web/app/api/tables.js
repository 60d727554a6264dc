// @ts-check
// api/tables.js builds the paths of a table itself: creating and joining
// one, its seats, its host's recovery, its log, audit and receipt, and its
// live stream; and the reads that belong to no table (presets, odds). The
// app reaches them through api.js.

import { get, getAll, send, post, download, tablePath } from './http.js';

/** @typedef {import('../api.js').Schemas} Schemas */
/** @typedef {import('../api.js').Door} Door */
/** @template [B=unknown], [R=unknown] @typedef {import('./http.js').Write<B, R>} Write */

/** presets lists the rule presets a table may start from. */
export const presets = () => /** @type {Promise<Schemas['Preset'][]>} */ (get('/v1/presets'));

/** receiptKey is the key the server signs night receipts with. */
export const receiptKey = () => /** @type {Promise<{ publicKey: string }>} */ (get('/v1/receipt-key'));

/**
 * odds asks what each choice of a turn is worth, with two tries only: an
 * advice that comes late is no advice.
 * @param {Schemas['OddsRequest']} body
 */
export const odds = (body) => /** @type {Promise<Schemas['Advice']>} */ (send({ method: 'POST', path: '/v1/odds', body }, 2));

/** @param {Schemas['CreateTableRequest']} body @returns {Write<Schemas['CreateTableRequest'], Schemas['CreatedTable']>} */
export const createTable = (body) => post('/v1/tables', body);

/** @param {Schemas['JoinRequest']} body @returns {Write<Schemas['JoinRequest'], Schemas['Joined']>} */
export const join = (body) => post('/v1/join', body);

/**
 * invitation reads the open seats behind a join code (two tries).
 * @param {string} code
 */
export const invitation = (code) => /** @type {Promise<Schemas['Invitation']>} */ (send({ method: 'GET', path: `/v1/join/${encodeURIComponent(code)}` }, 2));

/** @param {string} code the recovery code a host typed @returns {Write<Schemas['RecoverRequest'], Schemas['Recovered']>} */
export const recoverHost = (code) => post('/v1/host-recovery', { code });

/** @param {Door} t */
export const table = (t) => /** @type {Promise<Schemas['Table']>} */ (get(tablePath(t.id), t.token));

/** @param {Door} t @returns {Write<undefined, Schemas['Table']>} */
export const closeTable = (t) => post(`${tablePath(t.id)}/close`, undefined, t.token);

/** @param {Door} t @param {string} name @returns {Write<Schemas['SeatRequest'], Schemas['Player']>} */
export const seat = (t, name) => post(`${tablePath(t.id)}/players`, { name }, t.token);

/** @param {Door} t @param {number} player @returns {Write<undefined, Schemas['Player']>} */
export const leave = (t, player) => post(`${tablePath(t.id)}/players/${player}/leave`, undefined, t.token);

/** @param {Door} t @param {number} player @returns {Write<undefined, Schemas['Player']>} */
export const release = (t, player) => post(`${tablePath(t.id)}/players/${player}/release`, undefined, t.token);

/** @param {Door} t @returns {Write<undefined, Schemas['RecoveryOffer']>} */
export const offerRecovery = (t) => post(`${tablePath(t.id)}/host-recovery`, undefined, t.token);

/** events lists the table's log (players, money, payment claims, settings, host and rounds). @param {Door} t */
export const events = (t) => /** @type {Promise<import('../api.js').TableEvent[]>} */ (getAll(`${tablePath(t.id)}/events?kind=player&kind=ledger&kind=claim&kind=table&kind=host&kind=round&limit=500`, t.token, 'events'));

/**
 * audit checks the table's history, against a head this phone witnessed.
 * @param {Door} t @param {string} [witness] "SEQ:HASH"
 */
export const audit = (t, witness) => /** @type {Promise<Schemas['AuditReport']>} */ (get(`${tablePath(t.id)}/audit${witness ? `?witness=${witness}` : ''}`, t.token));

/** receipt is the night receipt as a file. @param {Door} t */
export const receipt = (t) => /** @type {Promise<{ blob: Blob, name: string }>} */ (download(`${tablePath(t.id)}/receipt`, t.token));

/** streamURL is the table's live event stream (EventSource cannot send headers). @param {Door} t */
export const streamURL = (t) => `${tablePath(t.id)}/stream?access_token=${encodeURIComponent(t.token)}`;
