// @ts-check
// api.js is the app's only door to Tally: the public HTTP API with bearer
// tokens. Every write carries an Idempotency-Key made once per intended
// action and reused on every retry, so a double tap or a retry after a
// dropped connection can never record a roll twice. Every answer that
// names the table's chain head (Tally-Head, after a write) is kept on the
// phone as a head it witnessed.

import { sawHead } from './store.js';

/** Problem is a refusal from the API (application/problem+json). */
export class Problem extends Error {
  constructor(p, status) {
    super(p.detail || p.title || `HTTP ${status}`);
    this.status = status;
    this.type = p.type || '';
    this.roll = p.roll;
    this.die = p.die;
    this.rule = p.rule;
  }
}

/**
 * recordedSince says whether err refused a write of play because something
 * was recorded since the state it was entered against (its `seen`): another
 * phone recorded the throw first. Its message says what and by whose phone;
 * the phone shows it, reads the table again and moves on.
 */
export function recordedSince(err) {
  return err instanceof Problem && err.type === '/problems/recorded-since';
}

/**
 * seen is what a write of play sends as its `seen`: the actions of the
 * round or game it was drawn from (view.actions), plus this phone's own
 * writes to the same path still waiting to be sent, which the server will
 * have recorded by the time this one arrives. A view without a count (kept
 * from an older server) sends none.
 */
export function seen(view, waiting) {
  return Number.isInteger(view.actions) ? { seen: view.actions + waiting } : {};
}

/** Offline means the request never got an answer, even after retries. */
export class Offline extends Error {}

/**
 * unanswered says whether err means the server did not judge the request:
 * the network failed, or the server (or a proxy in front of it) was busy
 * or down (408, 429, 502-504). Sending it again later may succeed.
 */
export function unanswered(err) {
  if (err instanceof Offline) return true;
  return err instanceof Problem && [408, 429, 502, 503, 504].includes(err.status);
}

const listeners = new Set();

/** onNetwork calls fn(ok, note) whenever requests start or stop failing. */
export function onNetwork(fn) {
  listeners.add(fn);
}

function tell(ok, note) {
  for (const fn of listeners) fn(ok, note);
}

/** newKey is a fresh random Idempotency-Key (works on plain http too). */
export function newKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return 'web-' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * Request is one request to send: a read, or a write with its key. The
 * answer it expects is R (never set: it only carries the type).
 * @template [R=unknown]
 * @typedef {{ method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, token?: string, key?: string,
 *   file?: boolean, answer?: R }} Request
 */

/**
 * Write is one intended write of body B, answered with R. Keep the object
 * to retry it: its key stays the same, so the server answers a retry with
 * the stored response.
 * @template [B=unknown], [R=unknown]
 * @typedef {{ method: 'POST' | 'PUT' | 'DELETE', path: string, body: B, token?: string, key: string, answer?: R }} Write
 */

/**
 * write describes one intended write (the endpoints below make them).
 * @param {string} path
 * @param {unknown} body
 * @param {string} [token]
 * @returns {Write}
 */
function write(path, body, token) {
  return { method: 'POST', path, body, token, key: newKey() };
}

/**
 * get reads a path as JSON, retrying while the network is down.
 * @param {string} path
 * @param {string} [token]
 */
function get(path, token) {
  return send({ method: 'GET', path, token });
}

/**
 * getAll reads every page of a list (rounds, ledger, events), following
 * each page's `next`, and resolves to the items of `field`, oldest first.
 * @param {string} path
 * @param {string} token
 * @param {string} field
 */
async function getAll(path, token, field) {
  /** @type {unknown[]} */
  const items = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let after = ''; ;) {
    const page = await get(after ? `${path}${sep}after=${encodeURIComponent(after)}` : path, token);
    items.push(...page[field]);
    if (!page.next) return items;
    after = page.next;
  }
}

const TIMEOUT_MS = 10000;
const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });

/**
 * send performs a request, retrying network failures, timeouts and 502-504
 * (503: the database is not answering) with backoff and the same
 * Idempotency-Key. A retry that reaches the server while the first attempt is
 * still being written waits for it there and gets its answer.
 * It resolves to the parsed JSON body (for req.file, the file: see
 * download) and rejects with Problem or Offline.
 * @template R
 * @param {Request<R>} req
 * @param {number} [attempts]
 * @returns {Promise<R>}
 */
export async function send(req, attempts = 7) {
  for (let i = 0; ; i++) {
    let res;
    try {
      res = await once(req);
    } catch (err) {
      if (i + 1 >= attempts) {
        tell(false, 'No connection to Tally.');
        throw new Offline('No connection: nothing was lost, try again when the wifi is back.');
      }
      tell(false, 'Connection lost — retrying…');
      await sleep(Math.min(300 * 2 ** i, 4000));
      continue;
    }
    const busy = res.status >= 502 && res.status <= 504;
    if (busy && i + 1 < attempts) {
      await sleep(Math.min(300 * 2 ** i, 4000));
      continue;
    }
    tell(true);
    witness(req.path, res);
    return req.file ? file(res) : parse(res);
  }
}

/**
 * download reads a file the API offers as an attachment (the night
 * receipt), retrying like send. It resolves to {blob, name}, the name the
 * server suggests, and rejects with Problem or Offline.
 * @param {string} path
 * @param {string} token
 * @returns {Promise<{ blob: Blob, name: string }>}
 */
function download(path, token) {
  return send({ method: 'GET', path, token, file: true });
}

// witness keeps the chain head a write's answer names for its table.
function witness(path, res) {
  const head = res.headers.get('Tally-Head');
  const m = /^\/v1\/tables\/(\d+)(\/|$)/.exec(path);
  if (head && m) sawHead(Number(m[1]), head);
}

// once makes one attempt with a timeout, so a hung request on bad wifi is
// retried rather than waited on forever.
async function once(req) {
  /** @type {Record<string, string>} */
  const headers = { Accept: req.file ? 'text/plain, text/csv, text/html, image/png, application/problem+json' : 'application/json' };
  if (req.token) headers.Authorization = 'Bearer ' + req.token;
  if (req.key) headers['Idempotency-Key'] = req.key;
  let body;
  if (req.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), TIMEOUT_MS);
  try {
    return await fetch(req.path, { method: req.method, headers, body, signal: ctl.signal });
  } finally {
    clearTimeout(timer);
  }
}

// file reads an attachment, or the problem that refused it.
async function file(res) {
  if (!res.ok) return parse(res);
  const disposition = res.headers.get('Content-Disposition') || '';
  const m = /filename="([^"]+)"/.exec(disposition);
  return { blob: await res.blob(), name: m ? m[1] : 'download.txt' };
}

async function parse(res) {
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!res.ok) throw new Problem(data || {}, res.status);
  return data;
}

// ---------------------------------------------------------------------------
// The endpoints. Every path of openapi.yaml the app uses is built here and
// nowhere else; the types are generated from openapi.yaml
// (api/web/types/openapi.d.ts, `make types`), so a field the contract does
// not have fails tsc in the module that reads it. A read returns the answer;
// a write returns the Write to send (api.send or outbox.submit), which keeps
// its Idempotency-Key across retries.

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

/** @param {number} id */
const tablePath = (id) => `/v1/tables/${id}`;

/**
 * post is a Write of body to path, answered with R.
 * @template B, R
 * @param {string} path
 * @param {B} body
 * @param {string} [token]
 * @returns {Write<B, R>}
 */
function post(path, body, token) {
  return /** @type {Write<B, R>} */ (write(path, body, token));
}

/** presets lists the rule presets a table may start from. */
export const presets = () => /** @type {Promise<Preset[]>} */ (get('/v1/presets'));

/** receiptKey is the key the server signs night receipts with. */
export const receiptKey = () => /** @type {Promise<{ publicKey: string }>} */ (get('/v1/receipt-key'));

/**
 * odds asks what each choice of a turn is worth, with two tries only: an
 * advice that comes late is no advice.
 * @param {Schemas['OddsRequest']} body
 */
export const odds = (body) => /** @type {Promise<Advice>} */ (send({ method: 'POST', path: '/v1/odds', body }, 2));

/** @param {Schemas['CreateTableRequest']} body @returns {Write<Schemas['CreateTableRequest'], CreatedTable>} */
export const createTable = (body) => post('/v1/tables', body);

/** @param {Schemas['CreateCrewRequest']} body @returns {Write<Schemas['CreateCrewRequest'], CreatedTable>} */
export const createCrew = (body) => post('/v1/crews', body);

/** @param {Schemas['JoinRequest']} body @returns {Write<Schemas['JoinRequest'], Joined>} */
export const join = (body) => post('/v1/join', body);

/**
 * invitation reads the open seats behind a join code (two tries).
 * @param {string} code
 */
export const invitation = (code) => /** @type {Promise<Invitation>} */ (send({ method: 'GET', path: `/v1/join/${encodeURIComponent(code)}` }, 2));

/** @param {string} code the recovery code a host typed @returns {Write<Schemas['RecoverRequest'], Recovered>} */
export const recoverHost = (code) => post('/v1/host-recovery', { code });

/** @param {Door} c */
export const crew = (c) => /** @type {Promise<Crew>} */ (get(`/v1/crews/${c.id}`, c.token));

/** @param {Door} c */
export const crewStats = (c) => /** @type {Promise<CrewStats>} */ (get(`/v1/crews/${c.id}/stats`, c.token));

/** @param {Door} c @param {Schemas['CreateNightRequest']} body @returns {Write<Schemas['CreateNightRequest'], CreatedTable>} */
export const createNight = (c, body) => post(`/v1/crews/${c.id}/nights`, body, c.token);

/** @param {Door} c @param {number} night the night's table @returns {Write<undefined, Balances>} */
export const rollNight = (c, night) => post(`/v1/crews/${c.id}/nights/${night}/roll`, undefined, c.token);

/** @param {Door} t */
export const table = (t) => /** @type {Promise<Table>} */ (get(tablePath(t.id), t.token));

/** @param {Door} t @returns {Write<undefined, Table>} */
export const closeTable = (t) => post(`${tablePath(t.id)}/close`, undefined, t.token);

/** @param {Door} t @param {string} name @returns {Write<Schemas['SeatRequest'], Player>} */
export const seat = (t, name) => post(`${tablePath(t.id)}/players`, { name }, t.token);

/** @param {Door} t @param {number} player @returns {Write<undefined, Player>} */
export const leave = (t, player) => post(`${tablePath(t.id)}/players/${player}/leave`, undefined, t.token);

/** @param {Door} t @param {number} player @returns {Write<undefined, Player>} */
export const release = (t, player) => post(`${tablePath(t.id)}/players/${player}/release`, undefined, t.token);

/** @param {Door} t @returns {Write<undefined, RecoveryOffer>} */
export const offerRecovery = (t) => post(`${tablePath(t.id)}/host-recovery`, undefined, t.token);

/** @param {Door} t @param {number} n */
export const round = (t, n) => /** @type {Promise<Round>} */ (get(`${tablePath(t.id)}/rounds/${n}`, t.token));

/** rounds lists every round of a table, oldest first. @param {Door} t */
export const rounds = (t) => /** @type {Promise<RoundSummary[]>} */ (getAll(`${tablePath(t.id)}/rounds?limit=100`, t.token, 'rounds'));

/** @param {Door} t @param {Schemas['StartRoundRequest'] | undefined} body @returns {Write<Schemas['StartRoundRequest'] | undefined, Round>} */
export const startRound = (t, body) => post(`${tablePath(t.id)}/rounds`, body, t.token);

/**
 * roundActions is the path a round's actions are written to (the outbox
 * compares it to tell which waiting writes are this round's).
 * @param {Door} t @param {number} n
 */
export const roundActions = (t, n) => `${tablePath(t.id)}/rounds/${n}/actions`;

/** @param {Door} t @param {number} n @param {Schemas['ActionRequest']} body @returns {Write<Schemas['ActionRequest'], Round>} */
export const act = (t, n, body) => post(roundActions(t, n), body, t.token);

/** @param {Door} t @param {number} n @param {Schemas['CorrectionRequest']} body @returns {Write<Schemas['CorrectionRequest'], Round>} */
export const takeBack = (t, n, body) => post(`${tablePath(t.id)}/rounds/${n}/take-back`, body, t.token);

/** @param {Door} t @param {number} n @param {Schemas['CorrectionRequest']} body @returns {Write<Schemas['CorrectionRequest'], Round>} */
export const reverseRound = (t, n, body) => post(`${tablePath(t.id)}/rounds/${n}/reverse`, body, t.token);

/** @param {Door} t @param {number} n */
export const royale = (t, n) => /** @type {Promise<RoyaleGame>} */ (get(`${tablePath(t.id)}/royale/${n}`, t.token));

/** @param {Door} t @param {Schemas['StartRoyaleRequest']} body @returns {Write<Schemas['StartRoyaleRequest'], RoyaleGame>} */
export const startRoyale = (t, body) => post(`${tablePath(t.id)}/royale`, body, t.token);

/** @param {Door} t @param {number} n @param {Schemas['RoyaleActionRequest']} body @returns {Write<Schemas['RoyaleActionRequest'], RoyaleGame>} */
export const royaleAct = (t, n, body) => post(`${tablePath(t.id)}/royale/${n}/actions`, body, t.token);

/** @param {Door} t @param {number} n @returns {Write<undefined, RoyaleGame>} */
export const abandonRoyale = (t, n) => post(`${tablePath(t.id)}/royale/${n}/abandon`, undefined, t.token);

/** @param {Door} t */
export const balances = (t) => /** @type {Promise<Balances>} */ (get(`${tablePath(t.id)}/balances`, t.token));

/** @param {Door} t */
export const settleUp = (t) => /** @type {Promise<SettleUp>} */ (get(`${tablePath(t.id)}/settle-up`, t.token));

/** ledger lists every money transaction of a table. @param {Door} t */
export const ledger = (t) => /** @type {Promise<Transaction[]>} */ (getAll(`${tablePath(t.id)}/ledger?limit=500`, t.token, 'transactions'));

/** ledgerCSV is the ledger as a CSV file. @param {Door} t */
export const ledgerCSV = (t) => /** @type {Promise<{ blob: Blob, name: string }>} */ (download(`${tablePath(t.id)}/ledger.csv`, t.token));

/**
 * cash records a buy-in (deposits) or a cash-out (withdrawals).
 * @param {Door} t @param {'deposits' | 'withdrawals'} kind @param {Schemas['CashRequest']} body
 * @returns {Write<Schemas['CashRequest'], Balances>}
 */
export const cash = (t, kind, body) => post(`${tablePath(t.id)}/${kind}`, body, t.token);

/** @param {Door} t @param {Schemas['PaymentRequest']} body @returns {Write<Schemas['PaymentRequest'], Balances>} */
export const pay = (t, body) => post(`${tablePath(t.id)}/payments`, body, t.token);

/** @param {Door} t @param {number} seq the ledger entry's event @param {Schemas['CorrectionRequest']} body @returns {Write<Schemas['CorrectionRequest'], Balances>} */
export const reverseEntry = (t, seq, body) => post(`${tablePath(t.id)}/ledger/${seq}/reverse`, body, t.token);

/** events lists the table's log (players, money, payment claims, settings, host and rounds). @param {Door} t */
export const events = (t) => /** @type {Promise<TableEvent[]>} */ (getAll(`${tablePath(t.id)}/events?kind=player&kind=ledger&kind=claim&kind=table&kind=host&kind=round&limit=500`, t.token, 'events'));

/**
 * change is a Write of body to path by another method than POST (a
 * setting put, a handle deleted), answered with R.
 * @template B, R
 * @param {'PUT' | 'DELETE'} method
 * @param {string} path
 * @param {B} body
 * @param {string} token
 * @returns {Write<B, R>}
 */
function change(method, path, body, token) {
  return /** @type {Write<B, R>} */ ({ method, path, body, token, key: newKey() });
}

/** @param {Door} t @param {Schemas['UnitValueRequest']} body @returns {Write<Schemas['UnitValueRequest'], Table>} */
export const setUnitValue = (t, body) => change('PUT', `${tablePath(t.id)}/unit-value`, body, t.token);

/** handles lists how the table's players like to be paid. @param {Door} t */
export const handles = (t) => /** @type {Promise<Handle[]>} */ (get(`${tablePath(t.id)}/handles`, t.token));

/** @param {Door} t @param {PayMethod} method @param {Schemas['HandleRequest']} body @returns {Write<Schemas['HandleRequest'], Handle>} */
export const putHandle = (t, method, body) => change('PUT', `${tablePath(t.id)}/handles/${method}`, body, t.token);

/** @param {Door} t @param {PayMethod} method @returns {Write<undefined, { player: number, method: string, removed: boolean }>} */
export const deleteHandle = (t, method) => change('DELETE', `${tablePath(t.id)}/handles/${method}`, undefined, t.token);

/** epcQR is the EPC QR code of a bank transfer, as a PNG. @param {Door} t @param {number} to @param {number} amount in units */
export const epcQR = (t, to, amount) => /** @type {Promise<{ blob: Blob, name: string }>} */ (download(`${tablePath(t.id)}/epc-qr?to=${to}&amount=${amount}`, t.token));

/** statement is the printable statement, an HTML page. @param {Door} t */
export const statement = (t) => /** @type {Promise<{ blob: Blob, name: string }>} */ (download(`${tablePath(t.id)}/statement.html`, t.token));

/** @param {Door} t @param {Schemas['ClaimRequest']} body @returns {Write<Schemas['ClaimRequest'], Claim>} */
export const sendClaim = (t, body) => post(`${tablePath(t.id)}/claims`, body, t.token);

/** claimsPath is where claims are sent (the outbox tells this phone's waiting claims by it). @param {Door} t */
export const claimsPath = (t) => `${tablePath(t.id)}/claims`;

/** @param {Door} t @param {number} id @returns {Write<undefined, Claim>} */
export const confirmClaim = (t, id) => post(`${tablePath(t.id)}/claims/${id}/confirm`, undefined, t.token);

/** @param {Door} t @param {number} id @param {Schemas['RefusalRequest']} body @returns {Write<Schemas['RefusalRequest'], Claim>} */
export const refuseClaim = (t, id, body) => post(`${tablePath(t.id)}/claims/${id}/refuse`, body, t.token);

/**
 * audit checks the table's history, against a head this phone witnessed.
 * @param {Door} t @param {string} [witness] "SEQ:HASH"
 */
export const audit = (t, witness) => /** @type {Promise<AuditReport>} */ (get(`${tablePath(t.id)}/audit${witness ? `?witness=${witness}` : ''}`, t.token));

/** receipt is the night receipt as a file. @param {Door} t */
export const receipt = (t) => /** @type {Promise<{ blob: Blob, name: string }>} */ (download(`${tablePath(t.id)}/receipt`, t.token));

/** streamURL is the table's live event stream (EventSource cannot send headers). @param {Door} t */
export const streamURL = (t) => `${tablePath(t.id)}/stream?access_token=${encodeURIComponent(t.token)}`;
