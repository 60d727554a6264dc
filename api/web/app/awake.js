// @ts-check
// awake.js keeps the screen on while a round or a game is open (a phone
// that sleeps between throws loses the table), and buzzes the phone when
// it becomes its player's turn. Both are left out quietly on browsers
// without the Screen Wake Lock API or navigator.vibrate.

let wanted = false;
/** @type {WakeLockSentinel | null} */
let lock = null; // the WakeLockSentinel held, if any
let asking = false;

/** keepAwake holds the screen on (true) or lets it sleep again (false). */
/** @param {boolean} on */
export function keepAwake(on) {
  wanted = on;
  sync();
}

// sync asks for the lock or releases it to match what is wanted. The
// browser releases a lock when the page is hidden; it is asked for again
// when the page is visible again.
async function sync() {
  if (!('wakeLock' in navigator) || asking) return;
  if (wanted && !lock && document.visibilityState === 'visible') {
    asking = true;
    try {
      const got = await navigator.wakeLock.request('screen');
      got.addEventListener('release', () => { if (lock === got) lock = null; });
      lock = got;
    } catch {
      // Refused (battery saver, no permission): the screen may sleep.
    } finally {
      asking = false;
    }
    if (!wanted) sync();
  } else if (!wanted && lock) {
    const held = lock;
    lock = null;
    held.release().catch(() => {});
  }
}
document.addEventListener('visibilitychange', sync);

/**
 * Turns tells when it becomes one phone's player's turn, once per turn.
 * The first look after the table is opened only learns where things
 * stand: the buzz is for a turn that comes, not one already there.
 */
export class Turns {
  constructor() {
    /** @type {string | undefined} */
    this.last = undefined;
  }

  /**
   * see takes the turn now on screen: key names it (round or game number
   * and player) when it is this phone's player's, '' otherwise. It buzzes
   * on a new key.
   * @param {string} key
   */
  see(key) {
    const first = this.last === undefined;
    if (key === this.last) return;
    this.last = key;
    if (key && !first && 'vibrate' in navigator) {
      try {
        navigator.vibrate([200, 100, 200]);
      } catch {
        // Some browsers refuse without a recent tap: nothing to do.
      }
    }
  }
}
