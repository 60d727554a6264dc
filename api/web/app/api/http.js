// @ts-check
// api/http.js sends requests to Tally and reads its answers: bearer
// tokens, retries with backoff, the Idempotency-Key every write carries
// (made once per intended action and reused on every retry, so a double
// tap or a retry after a dropped connection can never record a roll
// twice), refusals as Problem, and the chain head an answer names
// (Tally-Head), kept on the phone as a head it witnessed. The endpoint
// modules beside it build the paths; the app reaches all of it through
// api.js.

import { sawHead } from '../store.js';

/**
 * ProblemBody is a refusal's body as read: what the contract says
 * (openapi.yaml's Problem), every field optional, since a proxy in front
 * of Tally may answer with anything.
 * @typedef {Partial<import('../../types/openapi').components['schemas']['Problem']>} ProblemBody
 */

/** Problem is a refusal from the API (application/problem+json). */
export class Problem extends Error {
  /** @param {ProblemBody} p @param {number} status */
  constructor(p, status) {
    super(p.detail || p.title || `HTTP ${status}`);
    this.status = status;
    /** @type {string} */
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
 * @param {unknown} err
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
 * @param {{ actions?: number }} view
 * @param {number} waiting
 * @returns {{ seen?: number }}
 */
export function seen(view, waiting) {
  return view.actions !== undefined && Number.isInteger(view.actions) ? { seen: view.actions + waiting } : {};
}

/** Offline means the request never got an answer, even after retries. */
export class Offline extends Error {}

/**
 * unanswered says whether err means the server did not judge the request:
 * the network failed, or the server (or a proxy in front of it) was busy
 * or down (408, 429, 502-504). Sending it again later may succeed.
 * @param {unknown} err
 */
export function unanswered(err) {
  if (err instanceof Offline) return true;
  return err instanceof Problem && [408, 429, 502, 503, 504].includes(err.status);
}

/** @typedef {(ok: boolean, note?: string) => void} NetworkListener */

/** @type {Set<NetworkListener>} */
const listeners = new Set();

/** onNetwork calls fn(ok, note) whenever requests start or stop failing. @param {NetworkListener} fn */
export function onNetwork(fn) {
  listeners.add(fn);
}

/** @param {boolean} ok @param {string} [note] */
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
export function write(path, body, token) {
  return { method: 'POST', path, body, token, key: newKey() };
}

/**
 * post is a Write of body to path, answered with R (the endpoint modules
 * make their writes with it).
 * @template B, R
 * @param {string} path
 * @param {B} body
 * @param {string} [token]
 * @returns {Write<B, R>}
 */
export function post(path, body, token) {
  return /** @type {Write<B, R>} */ (write(path, body, token));
}

/** tablePath is a table's path, under which all of its endpoints are. @param {number} id */
export const tablePath = (id) => `/v1/tables/${id}`;

/**
 * get reads a path as JSON, retrying while the network is down.
 * @param {string} path
 * @param {string} [token]
 */
export function get(path, token) {
  return send({ method: 'GET', path, token });
}

/**
 * getAll reads every page of a list (rounds, ledger, events), following
 * each page's `next`, and resolves to the items of `field`, oldest first.
 * @param {string} path
 * @param {string} token
 * @param {string} field
 */
export async function getAll(path, token, field) {
  /** @type {unknown[]} */
  const items = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let after = ''; ;) {
    const page = /** @type {{ next?: string } & Record<string, unknown[]>} */ (await get(after ? `${path}${sep}after=${encodeURIComponent(after)}` : path, token));
    items.push(...page[field]);
    if (!page.next) return items;
    after = page.next;
  }
}

const TIMEOUT_MS = 10000;
/** @param {number} ms */
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
    return /** @type {Promise<R>} */ (req.file ? file(res) : parse(res));
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
export function download(path, token) {
  return send({ method: 'GET', path, token, file: true });
}

/**
 * witness keeps the chain head a write's answer names for its table.
 * @param {string} path
 * @param {Response} res
 */
function witness(path, res) {
  const head = res.headers.get('Tally-Head');
  const m = /^\/v1\/tables\/(\d+)(\/|$)/.exec(path);
  if (head && m) sawHead(Number(m[1]), head);
}

// once makes one attempt with a timeout, so a hung request on bad wifi is
// retried rather than waited on forever.
/** @param {Request} req */
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

/**
 * file reads an attachment, or the problem that refused it.
 * @param {Response} res
 * @returns {Promise<{ blob: Blob, name: string }>}
 */
async function file(res) {
  if (!res.ok) await parse(res); // throws the Problem that refused it
  const disposition = res.headers.get('Content-Disposition') || '';
  const m = /filename="([^"]+)"/.exec(disposition);
  return { blob: await res.blob(), name: m ? m[1] : 'download.txt' };
}

/**
 * parse reads a JSON answer (typed by the endpoint that asked for it), or
 * throws the Problem that refused the request.
 * @param {Response} res
 * @returns {Promise<unknown>} what it is, the endpoint that asked says
 */
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
