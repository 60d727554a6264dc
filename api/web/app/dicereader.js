// @ts-check
// dicereader.js reads dice in a camera frame, on the phone: nothing leaves
// it. A small network finds the dice's centres (a heat map over the frame,
// with each die's size); a second one names each die's face from a crop
// around its centre, or says it is on edge, or no die at all. Both are
// plain convolutions run here by hand (no WebAssembly, no eval), with the
// weights from dice.bin, which `make dice-model` trains (vision/).
//
// It refuses rather than guesses: when it finds more or fewer dice than
// the throw has, a die on edge, or a die it cannot name with confidence.
// In that last case alone it also gives the faces it is sure of (part):
// every die is found and none is on edge, so the camera may put those in
// the tray and leave the others to taps.

import { STEEPEST, canon, levelCrop, levelView, tiltOf } from './level.js';

/** FRAME is the size every frame is read at: 4:3, as phone cameras give. */
export const FRAME = { width: 320, height: 240 };

// SURE is how sure the classifier must be of every face, and SEEN how
// strong a centre must be to count as a die, unless the model file says
// (`make dice-model` picks both on held-out training scenes, never on the
// test throws: vision/dicetrain/check.py).
const SURE = 0.9;
const SEEN = 0.3;

/**
 * @typedef {{net: string, kind: string, shape?: number[], w?: number, b?: number,
 *   stride?: number, dil?: number, relu?: boolean, weights?: Float32Array, bias?: Float32Array,
 *   kernel?: Float32Array}} Layer
 * @typedef {{detector: Layer[], classifier: Layer[], cell: number, crop: number, cropSize: number,
 *   seen: number, sure: number, level: {focal: number, plane: number} | null}} Model
 * @typedef {{x: number, y: number, size: number, face: number, sure: number, edge: boolean, named: boolean}} Die
 *   (named: sure enough of its face, SURE, to put it in the tray)
 * @typedef {{ok: boolean, faces: number[], dice: Die[], reason: string, part: number[]}} Reading
 */

/** loadModel fetches and unpacks dice.bin (see vision/dicetrain/train.py). */
export async function loadModel(url = new URL('dice.bin', import.meta.url).href) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`the dice model did not load (${res.status})`);
  return parseModel(await res.arrayBuffer());
}

/** parseModel unpacks the model file's header and float16 weights. */
export function parseModel(/** @type {ArrayBuffer} */ buf) {
  const view = new DataView(buf);
  if (String.fromCharCode(...new Uint8Array(buf, 0, 4)) !== 'TDM1') throw new Error('not a dice model file');
  const len = view.getUint32(4, true);
  const head = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 8, len)));
  const half = new Uint16Array(buf.slice(8 + len));
  const all = new Float32Array(half.length);
  for (let i = 0; i < half.length; i++) all[i] = fromHalf(half[i]);
  /** @type {Model} */
  const model = { detector: [], classifier: [], cell: head.cell, crop: head.crop, cropSize: head.cropSize,
    seen: head.seen || SEEN, sure: head.sure || SURE, level: head.level || null };
  for (const l of head.layers) {
    if (l.shape) {
      const n = l.shape.reduce((/** @type {number} */ a, /** @type {number} */ b) => a * b, 1);
      l.weights = all.subarray(l.w, l.w + n);
      l.bias = all.subarray(l.b, l.b + l.shape[0]);
    }
    model[l.net === 'detector' ? 'detector' : 'classifier'].push(l);
  }
  return model;
}

function fromHalf(/** @type {number} */ h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

/**
 * grab draws a video or an image onto canvas at FRAME's size, cut to 4:3
 * around its middle, and returns its pixels.
 * @param {CanvasImageSource} source
 * @param {number} width the source's own width
 * @param {number} height the source's own height
 * @param {HTMLCanvasElement | OffscreenCanvas} canvas
 */
export function grab(source, width, height, canvas) {
  canvas.width = FRAME.width;
  canvas.height = FRAME.height;
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d', { willReadFrequently: true }));
  let sw = width;
  let sh = (width * 3) / 4;
  if (sh > height) {
    sh = height;
    sw = (height * 4) / 3;
  }
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, (width - sw) / 2, (height - sh) / 2, sw, sh, 0, 0, FRAME.width, FRAME.height);
  return ctx.getImageData(0, 0, FRAME.width, FRAME.height);
}

// FRAME_VIEW is the frame as it is (the identity): a model without the
// level view (dice.bin before session 9) is cut from the frame itself.
const FRAME_VIEW = { hm: [1, 0, 0, 0, 1, 0, 0, 0, 1], inv: [1, 0, 0, 0, 1, 0, 0, 0, 1], focal: 1, width: 0, height: 0 };

/** FLAT is the table's up direction when the phone is held flat over it. */
export const FLAT = [0, 0, -1];

/**
 * read finds the dice in a frame (ImageData at FRAME's size) and reads
 * them, expecting `expect` dice; `up` is the table's up direction in the
 * camera's coordinates (level.js), from the phone's motion sensor, or FLAT
 * when the phone has none.
 * @param {Model} model
 * @param {ImageData} image
 * @param {number} expect
 * @param {number[]} [up]
 * @returns {Reading}
 */
export function read(model, image, expect, up = FLAT) {
  const { width, height, data } = image;
  const rgb = new Float32Array(width * height * 3);
  for (let i = 0, j = 0; i < data.length; i += 4, j += 3) {
    rgb[j] = data[i];
    rgb[j + 1] = data[i + 1];
    rgb[j + 2] = data[i + 2];
  }
  if (model.level && !(tiltOf(up) <= STEEPEST)) {
    return { ok: false, faces: [], dice: [], reason: 'Hold the phone flatter, straight over the dice, or tap the faces.', part: [] };
  }
  const found = centres(model, rgb, width, height);
  const view = model.level ? levelView(up, model.level.focal, width, height) : null;
  /** @type {Die[]} */
  const dice = [];
  for (const c of found) {
    const p = view ? classifyLevel(model, view, rgb, width, height, c)
      : classify(model, levelCrop(rgb, width, height, FRAME_VIEW, c.x, c.y, c.size * model.crop, 0, model.cropSize));
    let best = 0;
    for (let k = 1; k < p.length; k++) if (p[k] > p[best]) best = k;
    if (best === 7) continue; // no die after all
    dice.push({ x: c.x, y: c.y, size: c.size, face: best < 6 ? best + 1 : 0, sure: p[best], edge: best === 6,
      named: best < 6 && p[best] >= model.sure });
  }
  dice.sort((a, b) => a.x - b.x);
  const faces = dice.map((d) => d.face);
  const no = (/** @type {string} */ reason, /** @type {number[]} */ part = []) => ({ ok: false, faces, dice, reason, part });
  if (dice.some((d) => d.edge)) return no('A die is on its edge: throw it again, or tap the faces.');
  if (dice.length !== expect) {
    return no(dice.length ? `I see ${count(dice.length)}, and this throw has ${expect}: get them all in view, or tap the faces.`
      : 'I see no dice yet: hold the phone over them.');
  }
  if (dice.some((d) => !d.named)) {
    return no('I cannot read every die clearly: hold the phone still, or tap the faces.',
      dice.filter((d) => d.named).map((d) => d.face));
  }
  return { ok: true, faces, dice, reason: '', part: faces };
}

function count(/** @type {number} */ n) {
  return n === 1 ? '1 die' : `${n} dice`;
}

/** centres runs the detector and returns the dice centres it sees. */
function centres(/** @type {Model} */ model, /** @type {Float32Array} */ rgb, /** @type {number} */ width, /** @type {number} */ height) {
  const w = width >> 1;
  const h = height >> 1;
  const small = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        const a = ((2 * y) * width + 2 * x) * 3 + c;
        const b = a + width * 3;
        small[(y * w + x) * 3 + c] = Math.floor((rgb[a] + rgb[a + 3] + rgb[b] + rgb[b + 3]) / 4);
      }
    }
  }
  normalize(small);
  const out = run(model.detector, small, h, w);
  const gh = out.h;
  const gw = out.w;
  const heat = new Float32Array(gw * gh);
  for (let i = 0; i < heat.length; i++) heat[i] = 1 / (1 + Math.exp(-out.data[i * 2]));
  const peaks = [];
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const v = heat[y * gw + x];
      if (v < model.seen) continue;
      let top = true;
      let sx = 0;
      let sy = 0;
      let sw = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy < 0 || yy >= gh || xx < 0 || xx >= gw) continue;
          const u = heat[yy * gw + xx];
          if (u > v || (u === v && (dy < 0 || (dy === 0 && dx < 0)))) top = false;
          sx += u * xx;
          sy += u * yy;
          sw += u;
        }
      }
      if (!top) continue;
      const size = Math.exp(out.data[(y * gw + x) * 2 + 1]);
      peaks.push({ x: (sx / sw) * model.cell + 1, y: (sy / sw) * model.cell + 1, size, v });
    }
  }
  peaks.sort((a, b) => b.v - a.v);
  /** @type {typeof peaks} */
  const kept = [];
  for (const p of peaks) {
    if (kept.every((k) => Math.hypot(k.x - p.x, k.y - p.y) > 0.6 * Math.max(k.size, p.size))) kept.push(p);
  }
  return kept;
}

/** classify returns the classifier's probabilities for a crop. */
function classify(/** @type {Model} */ model, /** @type {Float32Array} */ crop) {
  normalize(crop);
  return softmax(run(model.classifier, crop, model.cropSize, model.cropSize).data);
}

/** softmax turns a network's logits into probabilities. */
function softmax(/** @type {Float32Array} */ out) {
  let m = -Infinity;
  for (const v of out) m = Math.max(m, v);
  const e = Array.from(out, (v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

/**
 * classifyLevel names a die from its crop in the level view, turned as the
 * model learned (level.js), with the ray's obliqueness as a fourth plane
 * (exported for vision/dicetrain/parity.py).
 * @param {Model} model
 * @param {import('./level.js').View} view
 * @param {Float32Array} rgb
 * @param {number} width
 * @param {number} height
 * @param {{x: number, y: number, size: number}} c
 */
export function classifyLevel(model, view, rgb, width, height, c) {
  const { angle, oblique } = canon(view, c.x, c.y);
  const n = model.cropSize;
  const crop = levelCrop(rgb, width, height, view, c.x, c.y, c.size * model.crop, angle, n);
  normalize(crop);
  const x = new Float32Array(n * n * 4);
  const plane = (model.level ? model.level.plane : 0) * oblique;
  for (let i = 0; i < n * n; i++) {
    x.set(crop.subarray(i * 3, i * 3 + 3), i * 4);
    x[i * 4 + 3] = plane;
  }
  return softmax(run(model.classifier, x, n, n).data);
}

/** normalize brings an image to mean 0 and sd 1 (plus a floor), in place. */
function normalize(/** @type {Float32Array} */ x) {
  let sum = 0;
  for (const v of x) sum += v;
  const mean = sum / x.length;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  const sd = Math.sqrt(ss / (x.length - 1)) + 8;
  for (let i = 0; i < x.length; i++) x[i] = (x[i] - mean) / sd;
}

/**
 * run passes an image (rows, columns, channels) through a network's layers;
 * vision/dicetrain/parity.py checks it against PyTorch.
 * @param {Layer[]} layers
 * @param {Float32Array} data
 * @param {number} h
 * @param {number} w
 */
export function run(layers, data, h, w) {
  let c = data.length / (h * w);
  for (const l of layers) {
    if (l.kind === 'pool') {
      const oh = h >> 1;
      const ow = w >> 1;
      const out = new Float32Array(oh * ow * c);
      for (let y = 0; y < oh; y++) {
        for (let x = 0; x < ow; x++) {
          for (let k = 0; k < c; k++) {
            const a = ((2 * y) * w + 2 * x) * c + k;
            const b = a + w * c;
            out[(y * ow + x) * c + k] = Math.max(data[a], data[a + c], data[b], data[b + c]);
          }
        }
      }
      data = out;
      h = oh;
      w = ow;
    } else if (l.kind === 'conv') {
      const r = conv(data, h, w, c, l);
      data = r.data;
      h = r.h;
      w = r.w;
      c = r.c;
    } else {
      data = dense(data, l);
      h = w = 1;
      c = data.length;
    }
  }
  return { data, h, w };
}

/**
 * conv is a convolution, padded to keep size. Its weights, [out][ky][kx][in]
 * in the file, are laid out once in blocks of four output channels
 * (l.kernel, [out/4][ky][kx][in][4]), so that each output pixel sums four
 * channels at a time in registers, reading the weights in order; an input
 * that a ReLU has zeroed is skipped.
 */
function conv(/** @type {Float32Array} */ x, /** @type {number} */ h, /** @type {number} */ w, /** @type {number} */ cin,
  /** @type {Layer} */ l) {
  const [cout, kh, kw] = /** @type {number[]} */ (l.shape);
  const wt = kernel(l);
  const bias = /** @type {Float32Array} */ (l.bias);
  const stride = l.stride || 1;
  const dil = l.dil || 1;
  const pad = kh === 1 ? 0 : dil;
  const oh = Math.floor((h + 2 * pad - dil * (kh - 1) - 1) / stride) + 1;
  const ow = Math.floor((w + 2 * pad - dil * (kw - 1) - 1) / stride) + 1;
  const out = new Float32Array(oh * ow * cout);
  const tap = cin * 4;
  for (let oy = 0; oy < oh; oy++) {
    for (let ox = 0; ox < ow; ox++) {
      const o = (oy * ow + ox) * cout;
      for (let cb = 0; cb < cout; cb += 4) {
        let a0 = bias[cb];
        let a1 = cb + 1 < cout ? bias[cb + 1] : 0;
        let a2 = cb + 2 < cout ? bias[cb + 2] : 0;
        let a3 = cb + 3 < cout ? bias[cb + 3] : 0;
        let wi = cb * kh * kw * cin;
        for (let ky = 0; ky < kh; ky++) {
          const iy = oy * stride - pad + ky * dil;
          if (iy < 0 || iy >= h) {
            wi += kw * tap;
            continue;
          }
          for (let kx = 0; kx < kw; kx++, wi += tap) {
            const ix = ox * stride - pad + kx * dil;
            if (ix < 0 || ix >= w) continue;
            const xi = (iy * w + ix) * cin;
            for (let ci = 0, k = wi; ci < cin; ci++, k += 4) {
              const v = x[xi + ci];
              if (v === 0) continue;
              a0 += v * wt[k];
              a1 += v * wt[k + 1];
              a2 += v * wt[k + 2];
              a3 += v * wt[k + 3];
            }
          }
        }
        out[o + cb] = a0;
        if (cb + 1 < cout) out[o + cb + 1] = a1;
        if (cb + 2 < cout) out[o + cb + 2] = a2;
        if (cb + 3 < cout) out[o + cb + 3] = a3;
      }
    }
  }
  if (l.relu) for (let i = 0; i < out.length; i++) if (out[i] < 0) out[i] = 0;
  return { data: out, h: oh, w: ow, c: cout };
}

/** kernel is a convolution's weights as [out/4][ky][kx][in][4] (zeros past out), made once. */
function kernel(/** @type {Layer} */ l) {
  if (l.kernel) return l.kernel;
  const [cout, kh, kw, cin] = /** @type {number[]} */ (l.shape);
  const wt = /** @type {Float32Array} */ (l.weights);
  const k = new Float32Array(Math.ceil(cout / 4) * 4 * kh * kw * cin);
  for (let co = 0; co < cout; co++) {
    const cb = co - (co % 4);
    for (let ky = 0; ky < kh; ky++) {
      for (let kx = 0; kx < kw; kx++) {
        for (let ci = 0; ci < cin; ci++) {
          k[(((cb * kh + ky * 4) * kw + kx * 4) * cin + ci * 4) + (co % 4)] = wt[((co * kh + ky) * kw + kx) * cin + ci];
        }
      }
    }
  }
  l.kernel = k;
  return k;
}

/** dense is a fully connected layer (weights [out][in]). */
function dense(/** @type {Float32Array} */ x, /** @type {Layer} */ l) {
  const [nout, nin] = /** @type {number[]} */ (l.shape);
  const wt = /** @type {Float32Array} */ (l.weights);
  const bias = /** @type {Float32Array} */ (l.bias);
  const out = new Float32Array(nout);
  for (let o = 0; o < nout; o++) {
    let acc = bias[o];
    for (let i = 0; i < nin; i++) acc += x[i] * wt[o * nin + i];
    out[o] = l.relu && acc < 0 ? 0 : acc;
  }
  return out;
}
