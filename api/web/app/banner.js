// @ts-check
// banner.js says at the top of every screen when Tally cannot be reached:
// the first connection problem still standing (the network, or the live
// stream), gone once it is solved.

const bannerEl = /** @type {HTMLElement} */ (document.getElementById('banner'));
/** @type {Record<'net' | 'live', string | null>} */
const trouble = { net: null, live: null };

/**
 * setBanner shows the first connection problem still standing, if any.
 * @param {'net' | 'live'} source
 * @param {string | null | undefined} message
 */
export function setBanner(source, message) {
  trouble[source] = message || null;
  const msg = trouble.net || trouble.live;
  bannerEl.hidden = !msg;
  bannerEl.textContent = msg || '';
}
