// @ts-check
// address.js says where other phones should open Tally: the public address
// tallyd was given (--public-url), which the server writes into
// index.html, or else the address this page was opened with. The join, share
// and recovery links are built on it, so a host who opened Tally at a LAN
// address still hands out the https one.

/** appAddress is the origin the app's links point to, such as https://tally.example.com. */
export function appAddress() {
  const given = document.querySelector('meta[name="tally-public-url"]')?.getAttribute('content');
  if (given) {
    try {
      return new URL(given).origin;
    } catch {
      // Not an address (tallyd checks it at start): the page's own is.
    }
  }
  return location.origin;
}

/** appLink is a link that opens the app at a hash route: appLink({join: 'ABC'}) is https://…/#join=ABC. */
/** @param {URLSearchParams} params */
export function appLink(params) {
  return `${appAddress()}/#${params}`;
}
