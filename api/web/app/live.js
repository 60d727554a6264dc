// @ts-check
// live.js keeps a table's server-sent event stream open. On every "change"
// (and on a "sync" that shows something was missed, which is also what a
// reconnect sends first) it asks the page to refetch: each phone then reads
// its own view, so sealed rolls stay sealed. Each event names the table's
// chain head, which the phone keeps as one it witnessed.

import { sawHead } from './store.js';
import { streamURL } from './api.js';

/**
 * watch streams table `id` with `token` and calls refresh() when the table
 * changed, status(ok) when the stream drops or returns. It returns a
 * function that stops watching.
 * @param {number} id
 * @param {string} token
 * @param {() => unknown} refresh
 * @param {(ok: boolean) => void} status
 * @returns {() => void}
 */
export function watch(id, token, refresh, status) {
  /** @type {EventSource | null} */
  let es = null;
  let lastSeq = -1;
  let stopped = false;
  let retry = 1000;
  let timer = 0;

  const open = () => {
    const url = streamURL({ id, token });
    const stream = new EventSource(url);
    es = stream;
    stream.addEventListener('open', () => {
      retry = 1000;
      status(true);
    });
    stream.addEventListener('change', (ev) => {
      lastSeq = seqOf(id, ev, lastSeq);
      refresh();
    });
    stream.addEventListener('sync', (ev) => {
      const seq = seqOf(id, ev, lastSeq);
      if (seq !== lastSeq) {
        lastSeq = seq;
        refresh();
      }
    });
    stream.addEventListener('error', () => {
      status(false);
      // The browser reconnects by itself unless the server refused the
      // stream outright (CLOSED); then we try again with a growing pause.
      if (stream.readyState === EventSource.CLOSED && !stopped) {
        stream.close();
        timer = setTimeout(open, retry);
        retry = Math.min(retry * 2, 4000);
      }
    });
  };
  // A phone back from sleep or back online refetches at once; back online,
  // a stream that is not open is opened again now rather than after the
  // browser's own pause.
  const wake = () => {
    if (document.visibilityState === 'visible') refresh();
  };
  const online = () => {
    if (!stopped && es && es.readyState !== EventSource.OPEN) {
      es.close();
      clearTimeout(timer);
      retry = 1000;
      open();
    }
    refresh();
  };
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('online', online);
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (es) es.close();
    document.removeEventListener('visibilitychange', wake);
    window.removeEventListener('online', online);
  };
}

/**
 * seqOf reads the sequence number an event names and keeps its head.
 * @param {number} id
 * @param {Event} ev a MessageEvent (EventSource's own events, by name, are typed as Event)
 * @param {number} fallback
 * @returns {number}
 */
function seqOf(id, ev, fallback) {
  /** @type {{ seq: number, hash: string }} */
  let data;
  try {
    data = JSON.parse(/** @type {MessageEvent<string>} */ (ev).data);
  } catch {
    return fallback;
  }
  sawHead(id, `${data.seq}:${data.hash}`);
  return data.seq;
}
