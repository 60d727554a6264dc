// app.js is the entry point: it routes on the URL's hash and runs the open
// table's session (its data, its live stream and the tab on screen).
//
//   #              home: saved tables, start or join
//   #new           start a table
//   #join=CODE     join (the QR code's link; &seat=Name lists open seats)
//   #recover=CODE  become the host with a host recovery code (its QR link)
//   #t=ID&tab=...  a table: play, money, history or invite
//   #newcrew       start a crew
//   #c=ID&v=...    a crew: its page, tonight's table form (v=night) or its stats

import { h, replace, unit, typing } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { watch } from './live.js';
import { homeScreen, startScreen, joinScreen } from './home.js';
import { playTab } from './play.js';
import { royaleTab } from './royale.js';
import { moneyTab } from './money.js';
import { historyTab } from './history.js';
import { inviteTab } from './invite.js';
import { isRevoked, revokedScreen } from './revoked.js';
import { recoverScreen } from './recovery.js';
import { joinNotices } from './joins.js';
import { installApp } from './pwa.js';
import { showInsecure } from './insecure.js';
import * as outbox from './outbox.js';
import { showOutbox } from './waiting.js';
import { keepAwake, Turns } from './awake.js';
import { openCrew, closeCrew } from './crew.js';
import { crewStartScreen } from './crewstart.js';

const main = document.getElementById('main');
const bannerEl = document.getElementById('banner');
const trouble = { net: null, live: null };

// setBanner shows the first connection problem still standing, if any.
function setBanner(source, message) {
  trouble[source] = message;
  const msg = trouble.net || trouble.live;
  bannerEl.hidden = !msg;
  bannerEl.textContent = msg || '';
}
api.onNetwork((ok, note) => setBanner('net', ok ? null : note));
window.addEventListener('offline', () => setBanner('net', 'Offline — waiting for the wifi…'));
window.addEventListener('online', () => setBanner('net', null));
// A write that waited and then arrived, or was refused, changed the table:
// the screen shows it as the server has it.
showOutbox(document.getElementById('outbox'), (id, answer) => {
  if (session && session.id === id) session.caughtUp(answer);
});
// The Play tab says what waits to be sent: it is redrawn when that changes.
outbox.on('change', () => {
  if (session && session.table) session.render();
});
installApp();
showInsecure(document.getElementById('insecure'));

// A Battleship Royale table's Play tab is the game's (royale.js).
const play = (el, s) => (s.table.royale ? royaleTab(el, s) : playTab(el, s));
const TABS = { play: ['Play', play], money: ['Money', moneyTab], history: ['History', historyTab], invite: ['Invite', inviteTab] };

/** Session is one table open on this phone. */
class Session {
  constructor(saved) {
    this.id = saved.id;
    this.saved = saved;
    this.token = saved.token;
    this.role = saved.role;
    this.table = null;
    this.round = null;
    this.game = null; // a Battleship Royale table's latest game
    this.tab = 'play';
    this.ui = {}; // per-tab state that must survive re-renders (dice entered, inputs)
    this.cache = {}; // what the money and history tabs fetched last, by key
    this.loading = null;
    this.again = false;
    // What this phone read last, shown at once (with no network, until the
    // server answers again).
    const kept = store.view(this.id);
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

  /** name is a player's name by id ("the bank" for 0). */
  name(id) {
    if (!id) return 'the bank';
    const p = this.table && this.table.players.find((x) => x.id === id);
    return p ? p.name : `player ${id}`;
  }

  /** mayRecordFor says whether this phone may record player id's actions. */
  mayRecordFor(id) {
    return this.role === 'host' || (this.role === 'player' && this.me === id);
  }

  /** path is an API path under this table. */
  path(rest = '') {
    return `/v1/tables/${this.id}${rest}`;
  }

  /** refresh refetches the table and its latest round, then re-renders. */
  async refresh() {
    if (this.revoked) return undefined;
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      let changed = false;
      try {
        const table = await api.get(this.path(), this.token);
        let round = null;
        let game = null;
        if (table.royale) {
          const g = table.royale.currentGame || table.royale.gamesPlayed;
          game = g ? await api.get(this.path(`/royale/${g}`), this.token) : null;
        } else {
          const n = table.currentRound || table.roundsPlayed;
          round = n ? await api.get(this.path(`/rounds/${n}`), this.token) : null;
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
   */
  caughtUp(answer) {
    const key = this.table && this.table.royale ? 'game' : 'round';
    const cur = this[key];
    if (answer && cur && answer.number === cur.number && Number.isInteger(answer.actions) && answer.actions >= (cur.actions || 0)) {
      this[key] = answer;
      this.render();
    }
    this.refresh();
  }

  /** setTable shows a table an action just returned, then refetches. */
  setTable(table) {
    this.table = table;
    this.remember();
    this.render(true);
    this.refresh();
  }

  // remember keeps the table's name and whether it is closed with its
  // token, so the home screen can say so without asking the server.
  remember() {
    const closed = this.table.status === 'closed';
    if (this.saved.closed !== closed || this.saved.name !== this.table.name) {
      this.saved = { ...this.saved, closed, name: this.table.name };
      store.save({ id: this.id, closed, name: this.table.name });
    }
  }

  /**
   * load returns what loader gave for key last time (undefined at first)
   * and asks again; an answer that differs redraws the tab. The redraw an
   * answer causes does not ask again, so a tab drawn from its data settles.
   */
  load(key, loader) {
    const c = this.cache[key] || (this.cache[key] = {});
    c.loader = loader;
    if (c.fresh) {
      c.fresh = false;
      return c.value;
    }
    this.fetch(key, c);
    return c.value;
  }

  // fetch runs a tab's loader and redraws the tab if the answer is new.
  fetch(key, c) {
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
   * reload fetches a tab's data again and keeps it for the next redraw: a
   * write waits for it, so a paid debt is not offered for payment again.
   */
  async reload(key) {
    const c = this.cache[key];
    if (!c || !c.loader) return;
    const value = await c.loader();
    Object.assign(c, { value, seen: JSON.stringify(value), fresh: true });
  }

  /** setGame shows a Battleship Royale game an action just returned. */
  setGame(game) {
    this.game = game;
    this.table.pot = game.pot;
    this.render();
    this.refresh();
  }

  /** setRound shows a round an action just returned, without a refetch. */
  setRound(round) {
    this.round = round;
    this.table.pot = round.pot;
    this.render();
    this.refresh();
  }

  // revoke shows why this phone's token stopped working (its seat freed,
  // the host role moved away) instead of the table, and stops listening.
  revoke(err) {
    this.revoked = err;
    this.stop();
    revokedScreen(main, this.saved, err);
  }

  // fatal says why the table cannot be opened. A table the server no longer
  // knows (or a token it no longer takes) can be dropped from this phone.
  fatal(err) {
    const gone = err instanceof api.Problem && (err.status === 404 || err.status === 401);
    replace(main, h('section.card', h('h2', 'Cannot open this table'), h('p.error', err.message),
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
    this.awake();
    this.keep();
    const [, tab] = TABS[this.tab] || TABS.play;
    const old = main.querySelector('.tabbody');
    if (!force && old && old.dataset.tab === this.tab && typing(old)) {
      const top = main.querySelector('header.top');
      if (top) top.replaceWith(header(this));
      this.stale = true;
      return;
    }
    this.stale = false;
    const body = h('div.tabbody', { 'data-testid': `tab-${this.tab}`, dataset: { tab: this.tab } });
    this.shown = true;
    replace(main, header(this), joinNotices(this), body, tabBar(this));
    tab(body, this);
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
    this.turns.see(mine ? `${r ? 'round' : 'game'} ${(r || g).number}, player ${turn}` : '');
  }

  close() {
    this.stop();
    keepAwake(false);
  }
}

// A tab left stale while a field had the focus is redrawn once the thumb
// has moved on; the pause lets a tap on a button land first.
main.addEventListener('focusout', () => setTimeout(() => {
  const body = main.querySelector('.tabbody');
  if (session && session.stale && !(body && typing(body))) session.render();
}, 300));

// header shows the table, this phone's role, and the point, hammer and pot,
// which stay visible on every tab.
function header(s) {
  const r = s.round && s.round.status === 'playing' ? s.round : null;
  const me = s.table.players.find((p) => p.id === s.me);
  const who = s.role === 'host' ? `Host phone${s.me ? ` · you: ${s.name(s.me)}` : ''}`
    : s.role === 'player' ? `You: ${s.name(s.me)}${me && me.leftAt ? ' (left)' : ''}` : 'Read only';
  const closed = s.table.status === 'closed';
  const cell = (label, value, id) => h('div.stat', { 'data-testid': id }, h('span.label', label), h('span.value', value));
  // The pot says its unit: the number big, the unit small beside it.
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

function tabBar(s) {
  return h('nav.tabs', Object.entries(TABS).map(([key, [label]]) =>
    h('a.tab', { href: `#t=${s.id}&tab=${key}`, class: key === s.tab ? 'on' : '', 'data-testid': `go-${key}` }, label)));
}

let session = null;

function closeSession() {
  if (session) session.close();
  session = null;
}

function openTable(id, tab) {
  const saved = store.table(id);
  if (!saved) {
    closeSession();
    replace(main, h('section.card', h('h2', `Table ${id}`),
      h('p', 'This phone has not joined this table. Ask for the join code.'),
      h('a.button.primary', { href: '#join=' }, 'Join a table'), h('a.button', { href: '#' }, 'Home')));
    return;
  }
  if (!session || session.id !== id) {
    closeSession();
    session = new Session(saved);
    store.save({ id });
  }
  const next = TABS[tab] ? tab : 'play';
  // A "recorded" note belongs to the moment it was made: it does not wait
  // on another tab to be read hours later.
  if (next !== session.tab) for (const ui of Object.values(session.ui)) if (ui && ui.done) ui.done = '';
  session.tab = next;
  if (session.table) session.render(true);
  session.refresh();
}

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  window.scrollTo(0, 0);
  if (params.has('t')) {
    closeCrew();
    return openTable(Number(params.get('t')), params.get('tab'));
  }
  closeSession();
  if (params.has('c')) return openCrew(main, Number(params.get('c')), params.get('v') || '');
  closeCrew();
  if (params.has('newcrew')) return crewStartScreen(main);
  if (params.has('join')) return joinScreen(main, params.get('join'), params.getAll('seat'));
  if (params.has('recover')) return recoverScreen(main, params.get('recover'));
  if (params.has('new')) return startScreen(main);
  return homeScreen(main);
}

window.addEventListener('hashchange', route);
route();
