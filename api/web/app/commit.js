// @ts-check
// commit.js checks, on the phone itself, that each fleet revealed at the
// end of a Battleship Royale game is the one sealed when play began: it
// recomputes SHA-256 over "tally royale commitment v1\n", the fleet's salt
// and the fleet's canonical encoding, as docs/royale-commitment.md gives
// them byte by byte, and compares it with the commitment the game
// published. crypto.subtle exists only on a
// secure page (https or localhost); on bar wifi over plain http the same
// hash comes from the small SHA-256 below.

const KINDS = ['patrol-boat', 'destroyer', 'submarine', 'battleship', 'carrier'];

// cellIndex is a cell's place in board order: A1 0, A2 1, ... J10 99.
/**
 * Ship is one card of a revealed fleet: its kind, its bonus and its cells
 * ("A1" to "J10").
 * @typedef {{ kind: string, bonus?: number, cells: string[] }} Ship
 */

/** @param {string} c */
const cellIndex = (c) => 'ABCDEFGHIJ'.indexOf(c[0].toUpperCase()) * 10 + Number(c.slice(1)) - 1;

/** canonical is a fleet's one encoding, whatever order its cards and cells came in. @param {Ship[]} fleet */
export function canonical(fleet) {
  const cards = fleet.map((c) => ({ kind: c.kind, bonus: c.bonus || 0,
    cells: c.cells.map((x) => x.toUpperCase()).sort((a, b) => cellIndex(a) - cellIndex(b)) }));
  cards.sort((a, b) => (KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind)) || (a.bonus - b.bonus) || compareCells(a.cells, b.cells));
  return 'tally royale fleet v1\n' + cards.map((c) => `${c.kind} ${c.bonus}${c.cells.map((x) => ' ' + x).join('')}\n`).join('');
}

// compareCells orders two cards' cells as Go's slices.CompareFunc does.
/** @param {string[]} a @param {string[]} b */
function compareCells(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = cellIndex(a[i]) - cellIndex(b[i]);
    if (d) return d;
  }
  return a.length - b.length;
}

/** commitment is the hex SHA-256 commitment of a fleet and its base64 salt. @param {Ship[]} fleet @param {string} saltB64 */
export async function commitment(fleet, saltB64) {
  const enc = new TextEncoder();
  const salt = Uint8Array.from(atob(saltB64), (ch) => ch.charCodeAt(0));
  const parts = [enc.encode('tally royale commitment v1\n'), salt, enc.encode(canonical(fleet))];
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const digest = globalThis.crypto && crypto.subtle ? new Uint8Array(await crypto.subtle.digest('SHA-256', all)) : sha256(all);
  return Array.from(digest, (x) => x.toString(16).padStart(2, '0')).join('');
}

// K are SHA-256's round constants.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** sha256 is SHA-256 (FIPS 180-4) of bytes, for pages without crypto.subtle. @param {Uint8Array} bytes */
export function sha256(bytes) {
  const len = bytes.length;
  const padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[len] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(len / 0x20000000));
  view.setUint32(padded.length - 4, (len << 3) >>> 0);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  /** @param {number} x @param {number} n */
  const rot = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    const add = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) H[i] = H[i] + add[i];
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, H[i]);
  return out;
}
