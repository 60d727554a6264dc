// @ts-check
// sw.js is the service worker: it keeps the app shell (index.html and every
// file under /app/) in a cache named after the app's version, so the app
// opens with no network at all, and every file it serves comes from one
// version. The API is never cached or touched here: its reads and writes
// go to the network as they would without a service worker (writes that
// fail wait in the page's outbox, outbox.js).
//
// The server fills in VERSION (a hash of every file of the app) and SHELL
// (their URLs) when it starts (web.go), so a new deployment is a new
// worker: the browser installs it on the next visit, it caches the new
// shell, takes over and drops the old caches, and the page reloads once
// into the new version (pwa.js).

const VERSION = 'unversioned';
const SHELL = ['/'];
const CACHE = `tally-shell-${VERSION}`;
// sw is this worker's global scope, typed as a service worker's.
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // no-cache: each file is checked against the server (its ETag makes
    // that a 304 when unchanged), never taken stale from the HTTP cache.
    await cache.addAll(SHELL.map((url) => new Request(url, { cache: 'no-cache' })));
    await sw.skipWaiting();
  })());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('tally-shell-') && name !== CACHE) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

// Only the shell is answered from the cache (cache first: a shell is whole
// or not there at all); anything else, the API above all, is left alone.
sw.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.search || !SHELL.includes(url.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(url.pathname);
    return hit || fetch(req);
  })());
});
