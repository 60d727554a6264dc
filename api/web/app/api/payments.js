// @ts-check
// api/payments.js builds the paths of real money (docs/payments.md): what
// a unit is worth, the players' payment handles, the EPC QR code, payment
// claims and the printable statement. The app reaches them through api.js.

import { get, post, download, tablePath, newKey } from './http.js';

/** @typedef {import('../api.js').Schemas} Schemas */
/** @typedef {import('../api.js').Door} Door */
/** @template [B=unknown], [R=unknown] @typedef {import('./http.js').Write<B, R>} Write */

/**
 * change is a Write of body to path by another method than POST (a
 * setting put, a handle deleted), answered with R.
 * @template B, R
 * @param {'PUT' | 'DELETE'} method @param {string} path @param {B} body @param {string} token
 * @returns {Write<B, R>}
 */
function change(method, path, body, token) {
  return { method, path, body, token, key: newKey() };
}

/** @param {Door} t @param {Schemas['UnitValueRequest']} body @returns {Write<Schemas['UnitValueRequest'], Schemas['Table']>} */
export const setUnitValue = (t, body) => change('PUT', `${tablePath(t.id)}/unit-value`, body, t.token);

/** handles lists how the table's players like to be paid. @param {Door} t */
export const handles = (t) => /** @type {Promise<Schemas['Handle'][]>} */ (get(`${tablePath(t.id)}/handles`, t.token));

/** @param {Door} t @param {Schemas['PayMethod']} method @param {Schemas['HandleRequest']} body @returns {Write<Schemas['HandleRequest'], Schemas['Handle']>} */
export const putHandle = (t, method, body) => change('PUT', `${tablePath(t.id)}/handles/${method}`, body, t.token);

/** @param {Door} t @param {Schemas['PayMethod']} method @returns {Write<undefined, { player: number, method: string, removed: boolean }>} */
export const deleteHandle = (t, method) => change('DELETE', `${tablePath(t.id)}/handles/${method}`, undefined, t.token);

/** epcQR is the EPC QR code of a bank transfer, a PNG. @param {Door} t @param {number} to @param {number} amount in units */
export const epcQR = (t, to, amount) => /** @type {Promise<{ blob: Blob, name: string }>} */ (download(`${tablePath(t.id)}/epc-qr?to=${to}&amount=${amount}`, t.token));

/** statement is the printable statement, an HTML page. @param {Door} t */
export const statement = (t) => /** @type {Promise<{ blob: Blob, name: string }>} */ (download(`${tablePath(t.id)}/statement.html`, t.token));

/** claimsPath is where claims are sent (the outbox tells this phone's waiting claims by it). @param {Door} t */
export const claimsPath = (t) => `${tablePath(t.id)}/claims`;

/** @param {Door} t @param {Schemas['ClaimRequest']} body @returns {Write<Schemas['ClaimRequest'], Schemas['Claim']>} */
export const sendClaim = (t, body) => post(claimsPath(t), body, t.token);

/** @param {Door} t @param {number} id @returns {Write<undefined, Schemas['Claim']>} */
export const confirmClaim = (t, id) => post(`${tablePath(t.id)}/claims/${id}/confirm`, undefined, t.token);

/** @param {Door} t @param {number} id @param {Schemas['RefusalRequest']} body @returns {Write<Schemas['RefusalRequest'], Schemas['Claim']>} */
export const refuseClaim = (t, id, body) => post(`${tablePath(t.id)}/claims/${id}/refuse`, body, t.token);
