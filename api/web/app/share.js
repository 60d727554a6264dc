// @ts-check
// share.js is "Share the night" on a closed table's Money tab: a picture
// drawn in a canvas in the browser (the night's name and date, each
// player's result, best first, the biggest pot and who won it, who pays
// whom) and the same in a short text, for the group chat. The phone's share
// sheet takes the picture when it can (navigator.canShare with files),
// else the text; "Copy text" and "Download picture" work everywhere.

import { h, add, money, signed, message } from './dom.js';
import * as api from './api.js';
import { day } from './nights.js';

/** @typedef {import('./page.js').Page} Page */
/** @typedef {import('./page.js').Card} Card */

/**
 * Night is what the picture and the text say of a closed table.
 * @typedef {object} Night
 * @property {string} name
 * @property {string} date
 * @property {string} currency
 * @property {{ name: string, net: number, wins: number }[]} players best first
 * @property {number} rounds the rounds settled
 * @property {{ pot: number, round: number, winners: string[] } | null} biggest the biggest pot and who won it
 * @property {string[]} owes who pays whom, in words
 */

/** shareCard offers to share a closed night; once asked, it shows the picture and the text. @param {Page} s */
export function shareCard(s) {
  const ui = s.ui.share || (s.ui.share = {});
  const card = h('section.card', { 'data-testid': 'share' }, h('h2', 'Share the night'));
  if (!ui.night) {
    card.append(h('p.muted.small', 'A picture of the results and who pays whom, for the group chat.'),
      h('button.primary', { type: 'button', 'data-testid': 'share-night', disabled: !!ui.busy, onclick: () => prepare(s, ui) },
        ui.busy ? 'Drawing…' : 'Share the night'));
    if (ui.error) card.append(h('p.error', { role: 'alert' }, ui.error));
    return card;
  }
  const drawn = ui.night;
  const canvas = picture(drawn);
  const text = summary(drawn);
  return add(card, canvas, h('pre.summary', { 'data-testid': 'share-text' }, text),
    h('div.actions',
      'share' in navigator && h('button.primary', { type: 'button', 'data-testid': 'share-go', onclick: () => share(drawn, canvas, text) }, 'Share…'),
      h('button', { type: 'button', 'data-testid': 'copy-text', onclick: () => copy(ui, text, s) }, 'Copy text'),
      h('button', { type: 'button', 'data-testid': 'download-picture', onclick: () => download(canvas, drawn) }, 'Download picture')),
    ui.note && h('p.ok', { role: 'status', 'data-testid': 'share-note' }, ui.note));
}

/**
 * prepare reads what the picture says: balances, settle-up and rounds.
 * @param {Page} s
 * @param {import('./page.js').ShareCard} ui
 */
async function prepare(s, ui) {
  Object.assign(ui, { busy: true, error: '' });
  s.render(true);
  try {
    const [bal, plan, rounds] = await Promise.all([api.balances(s), api.settleUp(s), api.rounds(s)]);
    if (s.table) ui.night = night(s.table, bal, plan, rounds);
  } catch (err) {
    ui.error = message(err);
  }
  ui.busy = false;
  s.render(true);
}

/**
 * night gathers a closed table's results for sharing: the net per player,
 * best first; the rounds each won; the biggest pot (what a round paid its
 * winners) and who won it; and the settle-up in words.
 * @param {import('./api.js').Table} table
 * @param {import('./api.js').Balances} bal
 * @param {import('./api.js').SettleUp} plan
 * @param {import('./api.js').RoundSummary[]} rounds
 * @returns {Night}
 */
export function night(table, bal, plan, rounds) {
  /** @param {number} id */
  const name = (id) => (table.players.find((p) => p.id === id) || {}).name || `player ${id}`;
  /** @type {Map<number, number>} */
  const wins = new Map();
  /** @type {Night['biggest']} */
  let biggest = null;
  for (const r of rounds) {
    if (r.status !== 'settled' || !r.result || !r.result.winners.length) continue;
    for (const w of r.result.winners) wins.set(w, (wins.get(w) || 0) + 1);
    const pot = r.result.settlement.payouts.reduce((sum, p) => sum + p.amount, 0);
    if (!biggest || pot > biggest.pot) biggest = { pot, round: r.number, winners: r.result.winners.map(name) };
  }
  const players = [...bal.players].sort((a, b) => b.balance - a.balance || a.seat - b.seat)
    .map((p) => ({ name: p.name, net: p.balance, wins: wins.get(p.playerId) || 0 }));
  return { name: table.name, date: day(table.closedAt || table.createdAt), currency: table.currency, players,
    rounds: rounds.filter((r) => r.status === 'settled').length, biggest, owes: plan.owes || [] };
}

/** summary is the night in a few lines of text, the winner first. @param {Night} n */
export function summary(n) {
  const top = n.players[0];
  const lines = [`${n.name} — ${n.date}`];
  if (top && top.net > 0) lines.push(`Winner: ${top.name} (${signed(top.net, n.currency)})`);
  lines.push('', ...n.players.map((p, i) => `${i + 1}. ${p.name} ${signed(p.net, n.currency)}${p.wins ? ` · ${p.wins} won` : ''}`));
  if (n.biggest) lines.push('', `Biggest pot: ${money(n.biggest.pot, n.currency)}, won by ${n.biggest.winners.join(' and ')} in round ${n.biggest.round}`);
  lines.push(`${n.rounds} ${n.rounds === 1 ? 'round' : 'rounds'} played`);
  if (n.owes.length) lines.push('', 'Who pays whom:', ...n.owes);
  return lines.join('\n');
}

/** picture draws the night on a canvas 1080 pixels wide, tall as it needs. @param {Night} n */
export function picture(n) {
  const W = 1080;
  const rows = n.players.length;
  const H = 330 + rows * 76 + (n.biggest ? 80 : 0) + (n.owes.length ? 70 + n.owes.length * 52 : 0) + 70;
  const canvas = /** @type {HTMLCanvasElement} */ (h('canvas.share', { width: W, height: H, 'data-testid': 'share-picture', role: 'img', 'aria-label': `Results of ${n.name}` }));

  // A 2d context is there on every browser the app runs on.
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  g.fillStyle = '#0e1116';
  g.fillRect(0, 0, W, H);
  g.fillStyle = '#ffd23f';
  g.fillRect(0, 0, W, 14);
  /**
   * @param {string} t @param {number} x @param {number} y @param {number} size @param {string} color
   * @param {number} [weight] @param {CanvasTextAlign} [align]
   */
  const text = (t, x, y, size, color, weight = 400, align = 'left') => {
    g.font = `${weight} ${size}px system-ui, sans-serif`;
    g.fillStyle = color;
    g.textAlign = align;
    g.fillText(t, x, y, W - 120);
  };
  text(n.name, 60, 110, 64, '#f4f4f4', 700);
  text(`${n.date} · ${n.rounds} ${n.rounds === 1 ? 'round' : 'rounds'}`, 60, 165, 36, '#aab4c3');
  const top = n.players[0];
  if (top && top.net > 0) text(`Winner: ${top.name}`, 60, 240, 44, '#ffd23f', 700);
  const most = Math.max(1, ...n.players.map((p) => Math.abs(p.net)));
  let y = 300;
  for (const p of n.players) {
    const color = p.net > 0 ? '#5be37d' : p.net < 0 ? '#ff8a8a' : '#aab4c3';
    g.fillStyle = '#1a1f27';
    g.fillRect(60, y, W - 120, 62);
    g.fillStyle = color;
    g.globalAlpha = 0.25;
    g.fillRect(60, y, Math.max(6, (W - 120) * Math.abs(p.net) / most), 62);
    g.globalAlpha = 1;
    text(p.name, 84, y + 44, 38, '#f4f4f4', 600);
    text(signed(p.net, n.currency), W - 84, y + 44, 38, color, 700, 'right');
    y += 76;
  }
  if (n.biggest) {
    text(`Biggest pot: ${money(n.biggest.pot, n.currency)} — ${n.biggest.winners.join(' and ')}, round ${n.biggest.round}`, 60, y + 50, 34, '#4cc9f0');
    y += 80;
  }
  if (n.owes.length) {
    text('Who pays whom', 60, y + 50, 36, '#f4f4f4', 700);
    y += 70;
    for (const line of n.owes) {
      text(line, 60, y + 36, 32, '#aab4c3');
      y += 52;
    }
  }
  text('Tally', W - 60, H - 30, 30, '#3b4556', 700, 'right');
  return canvas;
}

// share hands the picture (or, where files cannot be shared, the text) to
// the phone's share sheet.
/** @param {Night} drawn @param {HTMLCanvasElement} canvas @param {string} text */
async function share(drawn, canvas, text) {
  try {
    // toBlob gives null only for a canvas of no size, which the picture never is.
    /** @type {Blob} */
    const blob = await new Promise((resolve) => { canvas.toBlob((b) => resolve(/** @type {Blob} */ (b)), 'image/png'); });
    const file = new File([blob], fileName(drawn), { type: 'image/png' });
    if (navigator.canShare && navigator.canShare({ files: [file] })) await navigator.share({ files: [file], title: drawn.name, text });
    else await navigator.share({ title: drawn.name, text });
  } catch {
    // Dismissed: nothing to say.
  }
}

/**
 * copy puts the text on the clipboard, or says to copy it by hand.
 * @param {Card} ui @param {string} text @param {Page} s
 */
async function copy(ui, text, s) {
  try {
    await navigator.clipboard.writeText(text);
    ui.note = 'Copied: paste it in the group chat.';
  } catch {
    ui.note = 'This browser does not let Tally copy: select the text above and copy it.';
  }
  s.render(true);
}

/**
 * download saves the picture as a PNG file.
 * @param {HTMLCanvasElement} canvas @param {Night} n
 */
function download(canvas, n) {
  canvas.toBlob((blob) => {
    const url = URL.createObjectURL(/** @type {Blob} */ (blob)); // never null: see share
    const a = h('a', { href: url, download: fileName(n) });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }, 'image/png');
}

/** @param {{ name: string }} n */
const fileName = (n) => `${n.name.replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '') || 'night'}.png`;
