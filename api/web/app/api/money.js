// @ts-check
// api/money.js builds the paths of money: a table's balances, settle-up
// and ledger, the buy-ins, cash-outs and payments written to it, and a
// crew's nights (each a table whose money the crew adds up). The app
// reaches them through api.js.

import { get, getAll, post, download, tablePath } from './http.js';

/** @typedef {import('../api.js').Schemas} Schemas */
/** @typedef {import('../api.js').Door} Door */
/** @template [B=unknown], [R=unknown] @typedef {import('./http.js').Write<B, R>} Write */

/** @param {Door} t */
export const balances = (t) => /** @type {Promise<Schemas['Balances']>} */ (get(`${tablePath(t.id)}/balances`, t.token));

/** @param {Door} t */
export const settleUp = (t) => /** @type {Promise<Schemas['SettleUp']>} */ (get(`${tablePath(t.id)}/settle-up`, t.token));

/** ledger lists every money transaction of a table. @param {Door} t */
export const ledger = (t) => /** @type {Promise<import('../api.js').Transaction[]>} */ (getAll(`${tablePath(t.id)}/ledger?limit=500`, t.token, 'transactions'));

/** ledgerCSV is the ledger as a CSV file. @param {Door} t */
export const ledgerCSV = (t) => /** @type {Promise<{ blob: Blob, name: string }>} */ (download(`${tablePath(t.id)}/ledger.csv`, t.token));

/**
 * cash records a buy-in (deposits) or a cash-out (withdrawals).
 * @param {Door} t @param {'deposits' | 'withdrawals'} kind @param {Schemas['CashRequest']} body
 * @returns {Write<Schemas['CashRequest'], Schemas['Balances']>}
 */
export const cash = (t, kind, body) => post(`${tablePath(t.id)}/${kind}`, body, t.token);

/** @param {Door} t @param {Schemas['PaymentRequest']} body @returns {Write<Schemas['PaymentRequest'], Schemas['Balances']>} */
export const pay = (t, body) => post(`${tablePath(t.id)}/payments`, body, t.token);

/** @param {Door} t @param {number} seq the ledger entry's event @param {Schemas['CorrectionRequest'] | undefined} body (none: no reason given) @returns {Write<Schemas['CorrectionRequest'] | undefined, Schemas['Balances']>} */
export const reverseEntry = (t, seq, body) => post(`${tablePath(t.id)}/ledger/${seq}/reverse`, body, t.token);

/** @param {Schemas['CreateCrewRequest']} body @returns {Write<Schemas['CreateCrewRequest'], Schemas['CreatedTable']>} */
export const createCrew = (body) => post('/v1/crews', body);

/** @param {Door} c */
export const crew = (c) => /** @type {Promise<Schemas['Crew']>} */ (get(`/v1/crews/${c.id}`, c.token));

/** @param {Door} c */
export const crewStats = (c) => /** @type {Promise<Schemas['CrewStats']>} */ (get(`/v1/crews/${c.id}/stats`, c.token));

/** @param {Door} c @param {Schemas['CreateNightRequest']} body @returns {Write<Schemas['CreateNightRequest'], Schemas['CreatedTable']>} */
export const createNight = (c, body) => post(`/v1/crews/${c.id}/nights`, body, c.token);

/** @param {Door} c @param {number} night the night's table @returns {Write<undefined, Schemas['Balances']>} */
export const rollNight = (c, night) => post(`/v1/crews/${c.id}/nights/${night}/roll`, undefined, c.token);
