// @ts-check
// outbox.js keeps the writes this phone could not send yet. Each write is
// stored in IndexedDB, with its Idempotency-Key, before it is first sent,
// and leaves only once the server has answered it: a phone offline, or
// talking to a server that is down, keeps its writes through a reload or a
// closed browser and sends them, in the order they were made, as soon as
// the server answers again (on the online event, when the live stream
// reopens, when the phone wakes, and on a retry with backoff that never
// waits for a tap). A retry reuses the key, so a write whose answer was
// lost is recorded once.
//
// A write the server refuses (another phone recorded first, the turn
// moved on) is dropped together with the writes of the same table made
// after it, since each was made on the assumption that it went through;
// the phone is told which, with the server's reason (the 'conflict' event;
// `already` when the server says something was recorded since the write's
// `seen`, which is news rather than an error). A refusal is never retried.

import * as api from './api.js';
import { message } from './dom.js';

/** Queued is the answer to a write that now waits in the outbox. */
export class Queued extends Error {}

const DB = 'tally';
const STORE = 'outbox';
const FIRST_TRIES = 2; // attempts before a fresh write is left to the queue
const MAX_PAUSE_MS = 4000;

/**
 * Entry is one write waiting in the outbox, as stored in IndexedDB (all but
 * `stalled`): the request to send again, unchanged (path, body, token and
 * its Idempotency-Key), the table it writes to, its label for the screen,
 * when it was made and its place in the order.
 * @typedef {object} Entry
 * @property {number} table the table's id
 * @property {'POST' | 'PUT' | 'DELETE'} [method] POST unless said (a write stored before it was kept is a POST)
 * @property {string} path
 * @property {unknown} body
 * @property {string} [token]
 * @property {string} key the Idempotency-Key, the same on every try
 * @property {string} label what the write does, in plain words ("Ann: throw 6 5 4 3 3")
 * @property {number} made when it was made (ms since 1970)
 * @property {number} seq its place in the order (IndexedDB's key)
 * @property {boolean} [stalled] it waits: its sender no longer waits for its answer (kept in memory only)
 */

/**
 * Sent is what 'sent' tells: a write that waited arrived, and its answer.
 * @typedef {{ table: number, answer: unknown }} Sent
 */

/**
 * Conflict is what 'conflict' tells: a waiting write was refused, and the
 * later writes of its table were dropped with it.
 * @typedef {{ table: number, refused: string, dropped: string[], reason: string, already: boolean }} Conflict
 */

/**
 * Events are what the outbox tells its listeners, by event name.
 * @typedef {{ change: undefined, sent: Sent, conflict: Conflict }} Events
 */

/** @typedef {{ resolve: (answer: unknown) => void, reject: (err: unknown) => void }} Waiter */

/** @type {Entry[]} */
let items = []; // the waiting writes, oldest first, as stored
/** @type {Map<number, Waiter>} */
const waiters = new Map(); // seq -> {resolve, reject} of a write still in its first attempts
/** @type {{ [E in keyof Events]: Set<(value: Events[E]) => void> }} */
const listeners = { change: new Set(), sent: new Set(), conflict: new Set() };
let running = false;
let pause = 500;
let timer = 0;
let seq = Date.now(); // the order of writes made without IndexedDB

/** on listens for 'change' (the waiting writes changed), 'sent' ({table,
 *  answer}: a waiting write arrived, and the server answered this) or
 *  'conflict' ({table, refused, dropped, reason, already}).
 * @template {keyof Events} E
 * @param {E} event
 * @param {(value: Events[E]) => void} fn
 */
export function on(event, fn) {
  listeners[event].add(fn);
}

/**
 * @template {keyof Events} E
 * @param {E} event
 * @param {Events[E]} [value]
 */
function emit(event, value) {
  for (const fn of listeners[event]) fn(/** @type {Events[E]} */ (value));
}

/** waiting lists the writes not sent yet, of one table or of all. @param {number} [table] */
export function waiting(table) {
  return items.filter((w) => w.stalled && (table === undefined || w.table === table));
}

/**
 * submit sends a write (made by an api.js endpoint) through the outbox, labelled in
 * plain words ("Ann: throw 6 5 4 3 3") for the screen. It resolves to the
 * server's answer, rejects with api.Problem if the server refuses it, and
 * with Queued when it could not be sent at once: it then waits here and
 * is sent later, and the page hears of it through 'sent' or 'conflict'.
 * @template R
 * @param {number} table the table's id
 * @param {api.Write<unknown, R>} req
 * @param {string} label
 * @returns {Promise<R>}
 */
export async function submit(table, req, label) {
  /** @type {Entry} */
  const w = { table, method: req.method, path: req.path, body: req.body, token: req.token, key: req.key, label, made: Date.now(), seq: 0 };
  // A write made behind others that wait, or while the phone knows it is
  // offline, waits too: the order of writes is the order they were made.
  w.stalled = !navigator.onLine || items.some((x) => x.stalled);
  w.seq = await store(w);
  items.push(w);
  /** @type {Promise<R>} */
  const answer = w.stalled ? Promise.reject(new Queued(label)) :
    new Promise((resolve, reject) => { waiters.set(w.seq, { resolve: (a) => resolve(/** @type {R} */ (a)), reject }); });
  emit('change');
  kick();
  return answer;
}

/** kick tries the waiting writes now (the network or the server is back). */
export function kick() {
  clearTimeout(timer);
  timer = 0;
  pause = 500;
  pump();
}

// pump sends the writes one by one, oldest first, until none is left or
// the server cannot be reached; then it tries again after a pause that
// grows to MAX_PAUSE_MS.
async function pump() {
  if (running) return;
  running = true;
  try {
    while (items.length) {
      const w = items[0];
      // A phone that knows it is offline waits for the online event (or
      // the next try, should that event never come) rather than fail.
      if (!navigator.onLine) {
        stall();
        timer = setTimeout(pump, MAX_PAUSE_MS);
        return;
      }
      let answer;
      try {
        answer = await api.send({ method: w.method || 'POST', path: w.path, body: w.body, token: w.token, key: w.key },
          w.stalled ? 1 : FIRST_TRIES);
      } catch (err) {
        if (api.unanswered(err)) {
          stall();
          timer = setTimeout(pump, pause);
          pause = Math.min(pause * 2, MAX_PAUSE_MS);
          return;
        }
        await refuse(w, err);
        continue;
      }
      await unstore([w]);
      items.shift();
      pause = 500;
      settle(w, (x) => x.resolve(answer));
      emit('change');
      if (w.stalled) emit('sent', { table: w.table, answer });
    }
  } finally {
    running = false;
  }
}

// stall marks every write as waiting: their senders stop waiting for them.
function stall() {
  for (const w of items) {
    w.stalled = true;
    settle(w, (x) => x.reject(new Queued(w.label)));
  }
  emit('change');
}

// refuse drops a refused write and the later writes of its table. A write
// whose sender still waits is that sender's to explain, like any refusal;
// one that waited in the outbox is explained to the phone as a conflict.
/** @param {Entry} w @param {unknown} err */
async function refuse(w, err) {
  const dropped = items.filter((x) => x !== w && x.table === w.table);
  items = items.filter((x) => x.table !== w.table);
  await unstore([w, ...dropped]);
  for (const d of dropped) settle(d, (x) => x.reject(err));
  const told = waiters.has(w.seq);
  settle(w, (x) => x.reject(err));
  if (!told || dropped.length) {
    emit('conflict', { table: w.table, refused: w.label, dropped: dropped.map((d) => d.label), reason: message(err),
      already: api.recordedSince(err) });
  }
  emit('change');
}

/** settle ends the wait of a write's sender, if it still waits. @param {Entry} w @param {(x: Waiter) => void} fn */
function settle(w, fn) {
  const x = waiters.get(w.seq);
  if (!x) return;
  waiters.delete(w.seq);
  fn(x);
}

// The writes are kept in IndexedDB; where it is missing or refuses (a
// private window of some browsers), they are kept in memory only.
/** @type {Promise<IDBDatabase | null> | null} */
let dbp = null;
/** @returns {Promise<IDBDatabase | null>} */
function db() {
  if (!dbp) {
    dbp = new Promise((resolve) => {
      let open;
      try {
        open = indexedDB.open(DB, 1);
      } catch {
        resolve(null); // no IndexedDB here, or not allowed
        return;
      }
      open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: 'seq', autoIncrement: true });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => resolve(null);
      open.onblocked = () => resolve(null);
    });
  }
  return dbp;
}

/**
 * tx runs fn on the store and resolves once the transaction is done, to
 * the result of the request fn made (undefined without IndexedDB, or when
 * the transaction failed).
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(s: IDBObjectStore) => IDBRequest<T> | void} fn
 * @returns {Promise<T | undefined>}
 */
async function tx(mode, fn) {
  const d = await db();
  if (!d) return undefined;
  return new Promise((resolve) => {
    const t = d.transaction(STORE, mode);
    const result = fn(t.objectStore(STORE));
    t.oncomplete = () => resolve(result ? result.result : undefined);
    t.onerror = t.onabort = () => resolve(undefined);
  });
}

/**
 * store keeps a write and returns its place in the order.
 * @param {Entry} w
 * @returns {Promise<number>}
 */
async function store(w) {
  // seq is IndexedDB's to give (autoIncrement): 0 is no key of its own.
  const { stalled, seq: _, ...kept } = w;
  const key = await tx('readwrite', (s) => s.add(kept));
  return key === undefined ? ++seq : /** @type {number} */ (key);
}

/** @param {Entry[]} ws */
function unstore(ws) {
  return tx('readwrite', (s) => { for (const w of ws) s.delete(w.seq); });
}

/**
 * start loads the writes a previous visit left waiting and sends them. It
 * is called once, when the app starts.
 */
export async function start() {
  const kept = /** @type {Entry[]} */ ((await tx('readonly', (s) => s.getAll())) || []);
  const known = new Set(items.map((w) => w.seq));
  items = [...kept.filter((w) => !known.has(w.seq)).map((w) => ({ ...w, stalled: true })), ...items].sort((a, b) => a.seq - b.seq);
  seq = Math.max(seq, ...items.map((w) => w.seq));
  window.addEventListener('online', kick);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && items.length) kick();
  });
  if (items.length) {
    emit('change');
    kick();
  }
}
