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
 */
export function watch(id, token, refresh, status) {
  let es = null;
  let lastSeq = -1;
  let stopped = false;
  let retry = 1000;
  let timer = 0;

  const open = () => {
    const url = streamURL({ id, token });
    es = new EventSource(url);
    es.addEventListener('open', () => {
      retry = 1000;
      status(true);
    });
    es.addEventListener('change', (ev) => {
      lastSeq = seqOf(id, ev, lastSeq);
      refresh();
    });
    es.addEventListener('sync', (ev) => {
      const seq = seqOf(id, ev, lastSeq);
      if (seq !== lastSeq) {
        lastSeq = seq;
        refresh();
      }
    });
    es.addEventListener('error', () => {
      status(false);
      // The browser reconnects by itself unless the server refused the
      // stream outright (CLOSED); then we try again with a growing pause.
      if (es.readyState === EventSource.CLOSED && !stopped) {
        es.close();
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

// seqOf reads the sequence number an event names and keeps its head.
function seqOf(id, ev, fallback) {
  let data;
  try {
    data = JSON.parse(ev.data);
  } catch {
    return fallback;
  }
  sawHead(id, `${data.seq}:${data.hash}`);
  return data.seq;
}
