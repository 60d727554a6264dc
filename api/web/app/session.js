// @ts-check
// session.js is Session, one table open on this phone: its data (the table
// and its latest round or game, read again on every change the live stream
// tells of), what each tab fetched last, the header and the tab bar, and
// drawing the tab on screen. It implements Page (page.js).

/** @typedef {import('./page.js').Page} Page */
/** @typedef {import('./page.js').UI} UI */
/** @typedef {import('./api.js').Table} Table */
/** @typedef {import('./api.js').Round} Round */
/** @typedef {import('./api.js').RoyaleGame} RoyaleGame */

/**
 * Ready is a Session whose table has been read: what the tabs are drawn
 * for (render draws nothing before).
 * @typedef {Session & { table: Table }} Ready
 */

/**
 * Cached is what a tab fetched last (cached): its loader, the answer and
 * its JSON, and whether the answer is new since it was last drawn.
 * @typedef {{ loader?: () => Promise<unknown>, value?: unknown, seen?: string, fresh?: boolean }} Cached
 */
import { h, replace, unit, typing, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { watch } from './live.js';
import { playTab } from './play.js';
import { royaleTab } from './royale.js';
import { moneyTab } from './money.js';
import { historyTab } from './history.js';
import { inviteTab } from './invite.js';
import { isRevoked, revokedScreen } from './revoked.js';
import { joinNotices } from './joins.js';
import * as outbox from './outbox.js';
import { keepAwake, Turns } from './awake.js';
import { setBanner } from './banner.js';

const main = /** @type {HTMLElement} */ (document.getElementById('main'));

// A Battleship Royale table's Play tab is the game's (royale.js).
/** @param {HTMLElement} el @param {Ready} s */
const play = (el, s) => (s.table.royale ? royaleTab(el, s) : playTab(el, s));
/**
 * TABS are the tabs of a table, by the name the URL gives them: the label
 * and the function that draws the tab.
 * @type {Record<string, [string, (el: HTMLElement, s: Ready) => void]>}
 */
export const TABS = { play: ['Play', play], money: ['Money', moneyTab], history: ['History', historyTab], invite: ['Invite', inviteTab] };

/**
 * Session is one table open on this phone.
 * @implements {Page}
 */
export class Session {
  /** @param {import('./store.js').Entry} saved what this phone holds of the table */
  constructor(saved) {
    this.id = saved.id;
    this.saved = saved;
    this.token = saved.token;
    this.role = saved.role;
    /** @type {Table | null} */
    this.table = null;
    /** @type {Round | null} */
    this.round = null;
    /** @type {RoyaleGame | null} */
    this.game = null; // a Battleship Royale table's latest game
    this.tab = 'play';
    /** @type {UI} */
    this.ui = {}; // per-tab state that must survive re-renders (dice entered, inputs)
    /** @type {Record<string, Cached>} */
    this.cache = {}; // what the money and history tabs fetched last, by key
    /** @type {Promise<unknown> | null} */
    this.loading = null;
    this.again = false;
    /** @type {unknown} why the token stopped working (revoke), once it has */
    this.revoked = undefined;
    this.shown = false;
    this.stale = false;
    /** @type {string | undefined} what keep stored last, as JSON */
    this.kept = undefined;
    // What this phone read last, shown at once (with no network, until the
    // server answers again).
    const kept = store.view(this.id);
    /** @type {string | undefined} what was last drawn, as JSON */
    this.seen = undefined;
    if (Array.isArray(kept) && kept[0]) [this.table, this.round, this.game, this.seen] = [...kept, JSON.stringify(kept)];
    this.turns = new Turns();
    // The stream coming back means the server answers again: the waiting
    // writes go at once, and the table is read again (nothing may have
    // changed, but the "No connection" of a failed read must not stay).
    let lost = false;
    this.stop = watch(this.id, this.token, () => this.refresh(), (ok) => {
      setBanner('live', ok ? null : 'Live updates lost — reconnecting…');
      if (ok) outbox.kick();
      if (ok && lost) this.refresh();
      lost = !ok;
    });
  }

  /**
   * me is the player this phone plays: a player's own, or the host's own
   * seat when the host plays (it goes with the host role, so a phone that
   * became the host plays it too); 0 for none.
   */
  get me() {
    if (this.role === 'player') return this.saved.playerId || 0;
    if (this.role !== 'host' || !this.table) return 0;
    const seat = this.table.players.find((p) => p.host && !p.leftAt);
    return seat ? seat.id : 0;
  }

  /** name is a player's name by id ("the bank" for 0). @param {number} [id] */
  name(id) {
    if (!id) return 'the bank';
    const p = this.table && this.table.players.find((x) => x.id === id);
    return p ? p.name : `player ${id}`;
  }

  /** mayRecordFor says whether this phone may record player id's actions. @param {number} [id] */
  mayRecordFor(id) {
    return this.role === 'host' || (this.role === 'player' && this.me === id);
  }

  /** refresh refetches the table and its latest round, then re-renders. @returns {Promise<unknown>} */
  async refresh() {
    if (this.revoked) return undefined;
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      let changed = false;
      try {
        const table = await api.table(this);
        let round = null;
        let game = null;
        if (table.royale) {
          const g = table.royale.currentGame || table.royale.gamesPlayed;
          game = g ? await api.royale(this, g) : null;
        } else {
          const n = table.currentRound || table.roundsPlayed;
          round = n ? await api.round(this, n) : null;
        }
        // Re-draw only what changed: a button replaced under a thumb is a
        // lost tap.
        const seen = JSON.stringify([table, round, game]);
        changed = seen !== this.seen || !this.shown;
        Object.assign(this, { table, round, game, seen });
        this.remember();
      } catch (err) {
        if (isRevoked(err)) return this.revoke(err);
        if (!this.table) return this.fatal(err);
      } finally {
        this.loading = null;
      }
      // The money and history tabs read more than the table and the round:
      // they ask again, and redraw only if their answer changed.
      const c = this.cache[this.tab];
      if (changed) this.render();
      else if (c && c.loader) this.fetch(this.tab, c);
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    })();
    return this.loading;
  }

  /**
   * caughtUp shows what the server answered a write that waited (a round
   * or a game), at once, then reads the table again. The write has just
   * left the outbox: the next one, tapped before the table is read again,
   * says it was entered against the round or game after it (api.seen), not
   * the one before. An answer older than what is on screen is not shown.
   * @param {unknown} answer the answer to a write of play: a Round, or a RoyaleGame on a Battleship Royale table
   */
  caughtUp(answer) {
    const a = /** @type {{ number?: unknown, actions?: unknown } | null} */ (answer);
    const royale = !!(this.table && this.table.royale);
    const cur = royale ? this.game : this.round;
    if (a && cur && a.number === cur.number && typeof a.actions === 'number' && Number.isInteger(a.actions) && a.actions >= (cur.actions || 0)) {
      if (royale) this.game = /** @type {RoyaleGame} */ (answer);
      else this.round = /** @type {Round} */ (answer);
      this.render();
    }
    this.refresh();
  }

  /** setTable shows a table an action just returned, then refetches. @param {Table} table */
  setTable(table) {
    this.table = table;
    this.remember();
    this.render(true);
    this.refresh();
  }

  // remember keeps the table's name and whether it is closed with its
  // token, so the home screen can say so without asking the server.
  remember() {
    if (!this.table) return;
    const closed = this.table.status === 'closed';
    if (this.saved.closed !== closed || this.saved.name !== this.table.name) {
      this.saved = { ...this.saved, closed, name: this.table.name };
      store.save({ id: this.id, closed, name: this.table.name });
    }
  }

  /**
   * cached returns what loader gave for key last time (undefined at first)
   * and asks again; an answer that differs redraws the tab. The redraw an
   * answer causes does not ask again, so a tab drawn from its data settles.
   * @template T
   * @param {string} key
   * @param {() => Promise<T>} loader
   * @returns {T | undefined} undefined until the first answer
   */
  cached(key, loader) {
    const c = this.cache[key] || (this.cache[key] = {});
    c.loader = loader;
    if (c.fresh) {
      c.fresh = false;
      return /** @type {T | undefined} */ (c.value); // what this loader gave
    }
    this.fetch(key, c);
    return /** @type {T | undefined} */ (c.value);
  }

  /**
   * fetch runs a tab's loader and redraws the tab if the answer is new.
   * @param {string} key
   * @param {Cached} c
   */
  fetch(key, c) {
    if (!c.loader) return;
    c.loader().then((value) => {
      const seen = JSON.stringify(value);
      if (seen === c.seen || this.cache[key] !== c) return;
      Object.assign(c, { value, seen });
      if (this.tab === key) {
        c.fresh = true;
        this.render();
      }
    }, () => {});
  }

  /**
   * reread fetches a tab's data again and keeps it for the next redraw: a
   * write waits for it, so a paid debt is not offered for payment again.
   * @param {string} key
   */
  async reread(key) {
    const c = this.cache[key];
    if (!c || !c.loader) return;
    const value = await c.loader();
    Object.assign(c, { value, seen: JSON.stringify(value), fresh: true });
  }

  /** reloadMoney reads the Money tab's data again (Page). */
  reloadMoney() {
    return this.reread('money');
  }

  /** setGame shows a Battleship Royale game an action just returned. @param {RoyaleGame} game */
  setGame(game) {
    this.game = game;
    if (this.table) this.table.pot = game.pot;
    this.render();
    this.refresh();
  }

  /** setRound shows a round an action just returned, without a refetch. @param {Round} round */
  setRound(round) {
    this.round = round;
    if (this.table) this.table.pot = round.pot;
    this.render();
    this.refresh();
  }

  // revoke shows why this phone's token stopped working (its seat freed,
  // the host role moved away) instead of the table, and stops listening.
  /** @param {unknown} err */
  revoke(err) {
    this.revoked = err;
    this.stop();
    revokedScreen(main, this.saved, err);
  }

  // fatal says why the table cannot be opened. A table the server no longer
  // knows (or a token it no longer takes) can be dropped from this phone.
  /** @param {unknown} err */
  fatal(err) {
    const gone = err instanceof api.Problem && (err.status === 404 || err.status === 401);
    replace(main, h('section.card', h('h1', 'Cannot open this table'), h('p.error', message(err)),
      gone && h('button', { type: 'button', 'data-testid': 'forget',
        onclick: () => { store.forget(this.id); location.hash = '#'; } }, 'Remove it from this phone'),
      h('a.button', { href: '#' }, 'Home')));
  }

  /**
   * render draws the header and the tab. A redraw that comes from the live
   * stream (force false) leaves the tab alone while a field in it is being
   * typed in, so the keyboard does not close under the thumb; the tab is
   * redrawn once the field is left.
   */
  render(force = false) {
    if (!this.table || this.revoked) return;
    const ready = /** @type {Ready} */ (/** @type {Session} */ (this)); // this.table is read, just checked
    this.awake();
    this.keep();
    const [, tab] = TABS[this.tab] || TABS.play;
    const old = /** @type {HTMLElement | null} */ (main.querySelector('.tabbody'));
    if (!force && old && old.dataset.tab === this.tab && typing(old)) {
      const top = main.querySelector('header.top');
      if (top) top.replaceWith(header(ready));
      this.stale = true;
      return;
    }
    this.stale = false;
    const body = h('div.tabbody', { 'data-testid': `tab-${this.tab}`, dataset: { tab: this.tab } });
    this.shown = true;
    replace(main, header(ready), joinNotices(ready), body, tabBar(this));
    tab(body, ready);
  }

  // keep stores what is about to be drawn, for an app opened offline.
  keep() {
    const view = JSON.stringify([this.table, this.round, this.game]);
    if (view === this.kept) return;
    this.kept = view;
    store.keepView(this.id, view);
  }

  // awake keeps the screen on while a round or a game is open, and buzzes
  // when it becomes this phone's player's turn.
  awake() {
    const r = this.round && this.round.status === 'playing' ? this.round : null;
    const g = this.game && this.game.phase !== 'over' ? this.game : null;
    keepAwake(!!(r || g));
    const turn = r ? r.turn : g && g.phase === 'playing' ? g.turn : 0;
    const mine = turn !== 0 && turn === this.me;
    const number = r ? r.number : g ? g.number : 0;
    this.turns.see(mine ? `${r ? 'round' : 'game'} ${number}, player ${turn}` : '');
  }

  close() {
    this.stop();
    keepAwake(false);
  }
}

// header shows the table, this phone's role, and the point, hammer and pot,
// which stay visible on every tab.
/** @param {Ready} s */
function header(s) {
  const r = s.round && s.round.status === 'playing' ? s.round : null;
  const me = s.table.players.find((p) => p.id === s.me);
  const who = s.role === 'host' ? `Host phone${s.me ? ` · you: ${s.name(s.me)}` : ''}`
    : s.role === 'player' ? `You: ${s.name(s.me)}${me && me.leftAt ? ' (left)' : ''}` : 'Read only';
  const closed = s.table.status === 'closed';
  /** @param {string} label @param {import('./dom.js').Child} value @param {string} id */
  const cell = (label, value, id) => h('div.stat', { 'data-testid': id }, h('span.label', label), h('span.value', value));
  // The pot says its unit: the number big, the unit small beside it.
  /** @param {number} n */
  const pot = (n) => [String(n), h('small.unit', ` ${unit(n, s.table.currency)}`)];
  if (s.table.royale) {
    const g = s.game && s.game.phase === 'playing' ? s.game : null;
    const out = g ? g.players.filter((p) => p.eliminated).length : 0;
    return h('header.top', { class: closed ? 'closed' : '' },
      h('div.title', h('a.home', { href: '#', 'aria-label': 'home' }, '⌂'), h('h1', s.table.name),
        closed ? h('span.chip', { 'data-testid': 'closed' }, 'Closed') : null, h('span.role', who)),
      h('div.stats',
        cell('Pot', pot(g ? g.pot : s.table.pot), 'pot'),
        cell('Turn', g ? s.name(g.turn) : '—', 'turn-of'),
        cell('Out', g ? String(out) : '—', 'out'),
        cell('Game', String(s.table.royale.currentGame || s.table.royale.gamesPlayed || '—'), 'game')));
  }
  return h('header.top', { class: closed ? 'closed' : '' },
    h('div.title', h('a.home', { href: '#', 'aria-label': 'home' }, '⌂'), h('h1', s.table.name),
      closed ? h('span.chip', { 'data-testid': 'closed' }, 'Closed') : null, h('span.role', who)),
    h('div.stats',
      cell('Pot', pot(r ? r.pot : s.table.pot), 'pot'),
      cell('Point', r && r.point !== undefined ? String(r.point) : '—', 'point'),
      cell('Hammer', r && r.hammer ? s.name(r.hammer) : '—', 'hammer'),
      cell('Round', String(s.table.currentRound || s.table.roundsPlayed || '—'), 'round')));
}

/** @param {Session} s */
function tabBar(s) {
  return h('nav.tabs', Object.entries(TABS).map(([key, [label]]) =>
    h('a.tab', { href: `#t=${s.id}&tab=${key}`, class: key === s.tab ? 'on' : '', 'data-testid': `go-${key}` }, label)));
}
