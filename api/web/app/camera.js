// @ts-check
// camera.js reads a throw with the phone's camera, for the dice pad: a
// button beside the tray opens the rear camera above the pad, the phone
// reads the frames (dicereader.js: on the phone, no frame is sent or
// kept), and once it reads the same faces twice running it puts them in
// the tray, where taps would have put them, stops the camera and shows the
// frame it read with each die marked. When it finds every die but can
// name only some, and reads the same PARTIAL_AFTER frames running, it
// puts those in the tray, marks the others ? on the frame, and the pad
// asks for their taps (BENCHMARKS.md, "Partial readings"). A face tapped
// while it reads closes it: the player has chosen taps. Recording is
// still the pad's Record button: nothing is recorded until the player has
// looked and tapped it, and a wrong die is taken out of the tray and
// tapped again as always. A throw it cannot read (a die on edge, too few
// or too many dice, a blurred frame) it says so about and leaves the tray
// alone.

import { h } from './dom.js';
import { FLAT, FRAME, grab, loadModel, read } from './dicereader.js';
import { upFromOrientation } from './level.js';

// PARTIAL_AFTER is how many frames running must give the same partial
// reading (the same faces named, the same number not) before the camera
// settles for it: about a second, for a whole reading to come first.
const PARTIAL_AFTER = 3;

/** @type {Promise<import('./dicereader.js').Model> | null} */
let model = null;

/**
 * The open camera, if any: the entry it reads for, its panel (kept across
 * redraws, so the video goes on playing) and the stream.
 * @type {null | {entry: {dice: number[]}, need: number, onChange: () => void, panel: HTMLElement,
 *   video: HTMLVideoElement, still: HTMLCanvasElement, status: HTMLElement, stream: MediaStream | null,
 *   last: string, runs: number, misses: number, done: boolean, gone: number, taps: string}}
 */
let cam = null;

/**
 * cameraTool is the pad's camera: a button for the tray's row and, while
 * open, the camera's panel to show above the tray. It is null where the
 * phone has no camera the page may use (a page not at a secure address)
 * or the throw's count is not known.
 * @param {{need: number, entry: {dice: number[]}, onChange: () => void, busy?: boolean}} o
 */
export function cameraTool({ need, entry, onChange, busy }) {
  if (!need || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return null;
  if (cam && (cam.entry !== entry || cam.need !== need)) stop();
  if (cam) cam.onChange = onChange;
  const button = h('button.ghost.camera', {
    type: 'button', 'aria-label': cam ? 'close the camera' : 'read the dice with the camera', 'data-testid': 'camera',
    'aria-pressed': cam ? 'true' : 'false', disabled: busy,
    onclick: () => { if (cam) stop(); else open(need, entry, onChange); onChange(); },
  }, icon());
  return { button, panel: cam ? cam.panel : null };
}

// icon draws a camera, as an SVG made here (no image to fetch).
function icon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const body = document.createElementNS(ns, 'path');
  body.setAttribute('d', 'M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z');
  const lens = document.createElementNS(ns, 'circle');
  lens.setAttribute('cx', '12');
  lens.setAttribute('cy', '13');
  lens.setAttribute('r', '4');
  svg.append(body, lens);
  return svg;
}

// open starts the rear camera and the reading.
function open(/** @type {number} */ need, /** @type {{dice: number[]}} */ entry, /** @type {() => void} */ onChange) {
  const video = h('video.camview', { playsinline: true, muted: true, autoplay: true, 'data-testid': 'camera-view' });
  const still = h('canvas.camview', { hidden: true, 'data-testid': 'camera-still' });
  const status = h('p.camstatus', { role: 'status', 'data-testid': 'camera-status' }, 'Opening the camera…');
  const panel = h('div.campanel', { 'data-testid': 'camera-panel' }, h('div.camframe', video, still), status,
    h('p.camnote', 'Hold the phone over the dice, all of them in view. The frames stay on this phone.'));
  /** @type {NonNullable<typeof cam>} */
  const c = { entry, need, onChange, panel, video: /** @type {HTMLVideoElement} */ (video),
    still: /** @type {HTMLCanvasElement} */ (still), status, stream: null, last: '', runs: 0, misses: 0,
    done: false, gone: 0, taps: entry.dice.join(' ') };
  cam = c;
  watchTilt(c);
  const loading = model || loadModel().catch((err) => { model = null; throw err; });
  model = loading;
  navigator.mediaDevices.getUserMedia({ audio: false,
    video: { facingMode: { ideal: 'environment' }, width: { ideal: 640 }, height: { ideal: 480 } } })
    .then(async (stream) => {
      if (cam !== c) {
        stream.getTracks().forEach((t) => t.stop());
        return;
      }
      c.stream = stream;
      c.video.srcObject = stream;
      await c.video.play();
      say(c, 'Reading…');
      loop(c, await loading);
    })
    .catch((err) => {
      if (cam === c) say(c, err && err.name === 'NotAllowedError' ? 'The camera was not allowed: tap the faces instead.'
        : `The camera did not open (${err && err.message ? err.message : err}): tap the faces instead.`, true);
    });
}

// loop reads one frame after another until a throw is read (twice the
// same whole, or PARTIAL_AFTER times the same in part), the camera is
// closed, a face is tapped (the tray is the player's), or its panel has
// left the page for good.
function loop(/** @type {NonNullable<typeof cam>} */ c, /** @type {import('./dicereader.js').Model} */ m) {
  if (cam !== c) return;
  if (c.entry.dice.join(' ') !== c.taps) {
    stop();
    c.onChange();
    return;
  }
  c.gone = c.panel.isConnected ? 0 : c.gone + 1;
  if (c.gone > 2) {
    stop();
    return;
  }
  const v = c.video;
  if (v.videoWidth && c.panel.isConnected) {
    const frame = grab(v, v.videoWidth, v.videoHeight, work());
    c.panel.dataset.up = tilt ? 'sensor' : 'flat';
    const r = read(m, frame, c.need, up());
    c.panel.dataset.reads = String(Number(c.panel.dataset.reads || 0) + 1);
    if (r.part.length) {
      // A reading, whole or in part: the same one twice running (whole) or
      // PARTIAL_AFTER times running (in part) is the throw.
      const key = r.ok ? r.faces.join(' ') : `${r.part.join(' ')} and ${r.dice.length - r.part.length} more`;
      c.runs = key === c.last ? c.runs + 1 : 1;
      c.last = key;
      c.misses = 0;
      if (c.runs >= (r.ok ? 2 : PARTIAL_AFTER)) {
        finish(c, frame, r);
        return;
      }
      say(c, `Reading… ${key}?`);
    } else {
      c.last = '';
      c.misses++;
      // One bad frame is a moving hand; the third in a row is the throw.
      say(c, c.misses >= 3 ? r.reason : 'Reading…', c.misses >= 3);
    }
  }
  setTimeout(() => loop(c, m), 150);
}

// finish puts the faces read in the tray (a partial reading's, those it
// is sure of) and shows the frame they came from, each die marked: its
// face, or ? for one left to a tap.
function finish(/** @type {NonNullable<typeof cam>} */ c, /** @type {ImageData} */ frame,
  /** @type {import('./dicereader.js').Reading} */ r) {
  c.done = true;
  c.entry.dice.length = 0;
  c.entry.dice.push(...r.part);
  c.still.width = FRAME.width;
  c.still.height = FRAME.height;
  const ctx = /** @type {CanvasRenderingContext2D} */ (c.still.getContext('2d'));
  ctx.putImageData(frame, 0, 0);
  ctx.lineWidth = 2;
  ctx.font = 'bold 16px sans-serif';
  ctx.textAlign = 'center';
  for (const d of r.dice) {
    ctx.strokeStyle = d.named ? '#3ddc84' : '#ffb300';
    ctx.strokeRect(d.x - d.size / 2, d.y - d.size / 2, d.size, d.size);
    ctx.fillStyle = '#000';
    ctx.fillRect(d.x - 9, d.y - d.size / 2 - 19, 18, 18);
    ctx.fillStyle = ctx.strokeStyle;
    ctx.fillText(d.named ? String(d.face) : '?', d.x, d.y - d.size / 2 - 4);
  }
  c.still.hidden = false;
  c.video.hidden = true;
  release(c);
  const left = r.dice.length - r.part.length;
  const unread = left === 1 ? 'the die marked ? I could not read: tap its face'
    : `the ${left} dice marked ? I could not read: tap their faces`;
  say(c, r.ok ? `Read ${r.faces.join(' ')}. Check them against the dice (tap a wrong one in the tray to change it), then Record.`
    : `Read ${r.part.join(' ')}; ${unread} (or throw again, if one is on its edge). Check the others against the dice, then Record.`);
  c.panel.dataset.read = r.part.join(' ');
  c.panel.dataset.marks = r.dice.map((d) => (d.named ? String(d.face) : '?')).join(' ');
  c.panel.dataset.unread = String(left);
  c.panel.classList.add('read');
  c.onChange();
  // The faces read and Record are what to look at now: on a small phone
  // they are below the frame, so they are brought into view.
  const pad = c.panel.closest('.pad');
  const tray = pad && pad.querySelector('.tray');
  if (tray && pad.lastElementChild) {
    tray.scrollIntoView({ block: 'nearest' });
    pad.lastElementChild.scrollIntoView({ block: 'nearest' });
  }
}

// say shows the camera's word; a refusal is an alert.
function say(/** @type {NonNullable<typeof cam>} */ c, /** @type {string} */ text, refused = false) {
  c.status.textContent = text;
  c.status.classList.toggle('refused', refused);
  c.status.setAttribute('role', refused ? 'alert' : 'status');
  c.panel.dataset.refused = refused ? 'true' : 'false';
}

// stop closes the camera and drops its panel.
function stop() {
  if (!cam) return;
  release(cam);
  cam = null;
}

function release(/** @type {NonNullable<typeof cam>} */ c) {
  window.removeEventListener('deviceorientation', onTilt);
  tilt = null;
  if (c.stream) c.stream.getTracks().forEach((t) => t.stop());
  c.stream = null;
  c.video.srcObject = null;
}

// The phone's tilt from its motion sensor, while the camera is open: the
// reader looks at the dice as from straight above the table (level.js).
// A phone with no sensor, or whose owner did not allow it, is taken to be
// held flat over the dice.
/** @type {{beta: number, gamma: number} | null} */
let tilt = null;

function onTilt(/** @type {DeviceOrientationEvent} */ e) {
  tilt = e.beta === null || e.gamma === null ? null : { beta: e.beta, gamma: e.gamma };
}

// watchTilt listens to the motion sensor while c is open; on an iPhone it
// asks first, which it may only do in the tap that opened the camera (and
// the answer may come after the camera has closed).
function watchTilt(/** @type {NonNullable<typeof cam>} */ c) {
  const ask = /** @type {{requestPermission?: () => Promise<string>}} */ (
    /** @type {unknown} */ (window.DeviceOrientationEvent || {})).requestPermission;
  const start = () => window.addEventListener('deviceorientation', onTilt);
  if (typeof ask !== 'function') {
    start();
    return;
  }
  ask.call(window.DeviceOrientationEvent).then((s) => { if (s === 'granted' && cam === c && !c.done) start(); })
    .catch(() => {});
}

// up is the table's up direction in the camera's coordinates, as read() takes it.
function up() {
  if (!tilt) return FLAT;
  // Safari before 16.4 has no screen.orientation, only window.orientation.
  const old = /** @type {{orientation?: number}} */ (/** @type {unknown} */ (window)).orientation || 0;
  return upFromOrientation(tilt.beta, tilt.gamma, screen.orientation ? screen.orientation.angle : (360 + old) % 360);
}

/** @type {HTMLCanvasElement | null} */
let canvas = null;

// work is the canvas frames are read through; it is never on the page.
function work() {
  if (!canvas) canvas = /** @type {HTMLCanvasElement} */ (document.createElement('canvas'));
  return canvas;
}
