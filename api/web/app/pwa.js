// @ts-check
// pwa.js makes the app installable and keeps it working offline: it
// registers the service worker (sw.js), which caches the app shell, and
// moves the page onto a new version once one is deployed. It also loads
// the outbox (writes waiting to be sent) kept from an earlier visit.

import * as outbox from './outbox.js';

/**
 * installApp registers the service worker for the whole site. The page
 * reloads once when a newer worker takes over, so it never mixes files of
 * two versions (but not when the first worker takes charge of the page it
 * was installed from: that is the same version); the reload waits while a
 * field has the focus, so nothing being typed is lost. Browsers without
 * service workers run the app as before. On an address that is not secure
 * (plain http from another machine) the browser allows no service worker:
 * none is registered, nothing offers to install the app, and insecure.js
 * tells the phone so.
 */
export function installApp() {
  outbox.start();
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const sw = navigator.serviceWorker;
  let workers = sw.controller ? 1 : 0; // the workers that ran this page
  sw.addEventListener('controllerchange', () => {
    workers++;
    if (workers === 2) reloadWhenIdle();
  });
  // The worker is registered once the page has loaded: on a first visit its
  // caching of every file must not hold up what the page itself asks for.
  const register = () => sw.register('/app/sw.js', { scope: '/', updateViaCache: 'none' }).then((reg) => {
    // A phone left open all night looks for a new version when it wakes.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') reg.update().catch(() => {});
    });
  }, () => {});
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

// reloadWhenIdle reloads now, or once the field being typed in is left.
function reloadWhenIdle() {
  const a = document.activeElement;
  if (a && a.matches('input, select, textarea')) {
    a.addEventListener('blur', () => location.reload(), { once: true });
    return;
  }
  location.reload();
}
