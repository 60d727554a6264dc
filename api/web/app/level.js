// @ts-check
// level.js looks at a die as a phone held straight down over the table
// would see it. The phone knows which way is down (its motion sensor) and
// a bar top is level, so the frame is turned, about the camera's centre,
// until it looks along gravity: a flat die's top face then shows square
// whatever the phone's tilt, and a cocked die does not, which is what lets
// the classifier tell the two apart (vision/README.md, "The level view";
// vision/dicetrain/level.py cuts the crops it learned from the same way).

/**
 * @typedef {{hm: number[], inv: number[], focal: number, width: number, height: number}} View
 */

/**
 * STEEPEST is how far from straight down (degrees) the phone may be held:
 * the training cameras were tilted up to 38 degrees, the sensor up to 3
 * off; a frame held steeper is refused rather than read.
 */
export const STEEPEST = 40;

/** tiltOf is how far from straight down the camera looks, in degrees. */
export function tiltOf(/** @type {number[]} */ up) {
  const n = Math.hypot(up[0], up[1], up[2]);
  return (Math.acos(Math.min(1, Math.max(-1, -up[2] / n))) * 180) / Math.PI;
}

/**
 * levelView is the homography from the frame's pixels to the level view's,
 * for a frame of width x height whose table's up direction is `up` in the
 * camera's coordinates (x right, y down the frame, z along the view): K R
 * K^-1, R the least rotation taking -up to the view axis, with the focal
 * length the model assumes (a phone's is not known).
 * @param {number[]} up
 * @param {number} focal
 * @param {number} width
 * @param {number} height
 * @returns {View}
 */
export function levelView(up, focal, width, height) {
  const n = Math.hypot(up[0], up[1], up[2]);
  const r = [-up[0] / n, -up[1] / n, -up[2] / n];
  // The least rotation taking r to (0, 0, 1): I + [v]x + [v]x^2 / (1 + r_z), v = r x z.
  const v = [r[1], -r[0], 0];
  const k = [0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0];
  const kk = mul(k, k);
  const rot = [1, 0, 0, 0, 1, 0, 0, 0, 1].map((e, i) => e + k[i] + kk[i] / (1 + r[2]));
  const kmat = [focal, 0, width / 2, 0, focal, height / 2, 0, 0, 1];
  const kinv = [1 / focal, 0, -width / 2 / focal, 0, 1 / focal, -height / 2 / focal, 0, 0, 1];
  const hm = mul(kmat, mul(rot, kinv));
  return { hm, inv: invert(hm), focal, width, height };
}

/** toLevel takes a frame point to the level view. */
function toLevel(/** @type {number[]} */ m, /** @type {number} */ x, /** @type {number} */ y) {
  const w = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w];
}

/**
 * canon is how the level view sees a frame point: the crop's turn that puts
 * the direction away from the point straight below the camera at the crop's
 * top, and how oblique the ray to it is (radians from straight down).
 * @param {View} view
 * @param {number} x
 * @param {number} y
 */
export function canon(view, x, y) {
  const [lx, ly] = toLevel(view.hm, x, y);
  const rx = lx - view.width / 2;
  const ry = ly - view.height / 2;
  return { angle: Math.atan2(rx, -ry), oblique: Math.atan(Math.hypot(rx, ry) / view.focal) };
}

/**
 * levelCrop samples an n x n crop in the level view, of side `side` frame
 * pixels at (cx, cy), turned by angle: each sample is taken back through
 * the homography to the frame and read bilinearly (pixel centres at
 * integer + 0.5), values truncated as the training crops were.
 * @param {Float32Array} rgb
 * @param {number} width
 * @param {number} height
 * @param {View} view
 * @param {number} cx
 * @param {number} cy
 * @param {number} side
 * @param {number} angle
 * @param {number} n
 */
export function levelCrop(rgb, width, height, view, cx, cy, side, angle, n) {
  const [lx, ly] = toLevel(view.hm, cx, cy);
  const s = side * scaleAt(view.hm, cx, cy);
  const c = Math.cos(angle);
  const si = Math.sin(angle);
  const m = view.inv;
  const out = new Float32Array(n * n * 3);
  for (let i = 0; i < n; i++) {
    const gy = ((i + 0.5) / n - 0.5) * s;
    for (let j = 0; j < n; j++) {
      const gx = ((j + 0.5) / n - 0.5) * s;
      const [fx, fy] = toLevel(m, lx + c * gx - si * gy, ly + si * gx + c * gy);
      const x = fx - 0.5;
      const y = fy - 0.5;
      const x0 = Math.min(Math.max(Math.floor(x), 0), width - 1);
      const y0 = Math.min(Math.max(Math.floor(y), 0), height - 1);
      const x1 = Math.min(x0 + 1, width - 1);
      const y1 = Math.min(y0 + 1, height - 1);
      const wx = Math.min(Math.max(x - Math.floor(x), 0), 1);
      const wy = Math.min(Math.max(y - Math.floor(y), 0), 1);
      for (let k = 0; k < 3; k++) {
        const top = rgb[(y0 * width + x0) * 3 + k] * (1 - wx) + rgb[(y0 * width + x1) * 3 + k] * wx;
        const bot = rgb[(y1 * width + x0) * 3 + k] * (1 - wx) + rgb[(y1 * width + x1) * 3 + k] * wx;
        out[(i * n + j) * 3 + k] = Math.floor(top * (1 - wy) + bot * wy);
      }
    }
  }
  return out;
}

/** scaleAt is how much the level view enlarges lengths near (x, y). */
function scaleAt(/** @type {number[]} */ m, /** @type {number} */ x, /** @type {number} */ y) {
  const e = 0.5;
  const a = toLevel(m, x + e, y);
  const b = toLevel(m, x - e, y);
  const c = toLevel(m, x, y + e);
  const d = toLevel(m, x, y - e);
  const ax = a[0] - b[0];
  const ay = a[1] - b[1];
  const bx = c[0] - d[0];
  const by = c[1] - d[1];
  return Math.sqrt(Math.abs(ax * by - ay * bx)) / (2 * e);
}

/**
 * upFromOrientation is the table's up direction in the rear camera's
 * coordinates from a deviceorientation event's beta and gamma (degrees)
 * and the screen's turn (screen.orientation.angle, counterclockwise): the device's frame is
 * x right, y up the screen, z out of it; the rear camera looks along -z,
 * and the frame it gives is upright on the screen as turned.
 * @param {number} beta
 * @param {number} gamma
 * @param {number} screenAngle
 */
export function upFromOrientation(beta, gamma, screenAngle) {
  const b = (beta * Math.PI) / 180;
  const g = (gamma * Math.PI) / 180;
  const dx = -Math.cos(b) * Math.sin(g);
  const dy = Math.sin(b);
  const dz = Math.cos(b) * Math.cos(g);
  // The screen turned counterclockwise by screenAngle: its right is the
  // device's x turned by that angle, its up the device's y.
  const t = (screenAngle * Math.PI) / 180;
  const sx = Math.cos(t) * dx - Math.sin(t) * dy;
  const sy = Math.sin(t) * dx + Math.cos(t) * dy;
  return [sx, -sy, -dz];
}

/** mul multiplies two 3x3 matrices (row-major). */
function mul(/** @type {number[]} */ a, /** @type {number[]} */ b) {
  const o = new Array(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) o[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j];
  return o;
}

/** invert is a 3x3 matrix's inverse (row-major). */
function invert(/** @type {number[]} */ m) {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [A, -(b * i - c * h), b * f - c * e, B, a * i - c * g, -(a * f - c * d), C, -(a * h - b * g), a * e - b * d]
    .map((v) => v / det);
}
