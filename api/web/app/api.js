// @ts-check
// api.js is the app's only door to Tally: the public HTTP API with bearer
// tokens. Every path of openapi.yaml the app uses is built behind it and
// nowhere else, split by concern into api/: http.js sends (retries, the
// Idempotency-Key every write carries and reuses on a retry, refusals as
// Problem, the chain head an answer names), tables.js builds the paths of a
// table, its seats and its log, play.js those of rounds and Battleship
// Royale, money.js those of balances, the ledger and crews. Modules import
// this file, never the ones under api/.
//
// The types are generated from openapi.yaml (api/web/types/openapi.d.ts,
// `make types`), so a field the contract does not have fails tsc in the
// module that reads it. A read returns the answer; a write returns the
// Write to send (api.send or outbox.submit), which keeps its
// Idempotency-Key across retries.

export { Problem, Offline, recordedSince, seen, unanswered, onNetwork, newKey, send } from './api/http.js';
export * from './api/tables.js';
export * from './api/play.js';
export * from './api/money.js';
export * from './api/payments.js';

/** @template [R=unknown] @typedef {import('./api/http.js').Request<R>} Request */
/** @template [B=unknown], [R=unknown] @typedef {import('./api/http.js').Write<B, R>} Write */

/** @typedef {import('../types/openapi').components['schemas']} Schemas */
/** @typedef {Schemas['Preset']} Preset */
/** @typedef {Schemas['Table']} Table */
/** @typedef {Schemas['Player']} Player */
/** @typedef {Schemas['Round']} Round */
/** @typedef {Schemas['RoyaleGame']} RoyaleGame */
/** @typedef {Schemas['Balances']} Balances */
/** @typedef {Schemas['SettleUp']} SettleUp */
/** @typedef {Schemas['AuditReport']} AuditReport */
/** @typedef {Schemas['Crew']} Crew */
/** @typedef {Schemas['CrewStats']} CrewStats */
/** @typedef {Schemas['CreatedTable']} CreatedTable */
/** @typedef {Schemas['Joined']} Joined */
/** @typedef {Schemas['Invitation']} Invitation */
/** @typedef {Schemas['Recovered']} Recovered */
/** @typedef {Schemas['RecoveryOffer']} RecoveryOffer */
/** @typedef {Schemas['Advice']} Advice */
/** @typedef {Schemas['RoundPage']['rounds'][number]} RoundSummary */
/** @typedef {Schemas['LedgerPage']['transactions'][number]} Transaction */
/** @typedef {Schemas['EventPage']['events'][number]} TableEvent */
/** @typedef {Schemas['Handle']} Handle */
/** @typedef {Schemas['Claim']} Claim */
/** @typedef {Schemas['Transfer']} Transfer */
/** @typedef {Schemas['PayOption']} PayOption */
/** @typedef {Schemas['PayMethod']} PayMethod */

/**
 * Door is what a phone holds of a table (a crew is a table too): its id and
 * the token the phone was given for it.
 * @typedef {{ id: number, token: string }} Door
 */
