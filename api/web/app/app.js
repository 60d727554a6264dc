// app.js is the entry point: it routes on the URL's hash and runs the open
// table's session (its data, its live stream and the tab on screen).
//
//   #              home: saved tables, start or join
//   #new           start a table
//   #join=CODE     join (the QR code's link; &seat=Name lists open seats)
//   #t=ID&tab=...  a table: play, money, history or invite

import { h, replace } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { watch } from './live.js';
import { homeScreen, startScreen, joinScreen } from './home.js';
import { playTab } from './play.js';
import { moneyTab } from './money.js';
import { historyTab } from './history.js';
import { inviteTab } from './invite.js';

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

const TABS = { play: ['Play', playTab], money: ['Money', moneyTab], history: ['History', historyTab], invite: ['Invite', inviteTab] };

/** Session is one table open on this phone. */
class Session {
  constructor(saved) {
    this.id = saved.id;
    this.saved = saved;
    this.token = saved.token;
    this.role = saved.role;
    this.me = saved.playerId || 0;
    this.table = null;
    this.round = null;
    this.tab = 'play';
    this.ui = {}; // per-tab state that must survive re-renders (dice entered, inputs)
    this.loading = null;
    this.again = false;
    this.stop = watch(this.id, this.token, () => this.refresh(), (ok) =>
      setBanner('live', ok ? null : 'Live updates lost — reconnecting…'));
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
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      let changed = false;
      try {
        const table = await api.get(this.path(), this.token);
        const n = table.currentRound || table.roundsPlayed;
        const round = n ? await api.get(this.path(`/rounds/${n}`), this.token) : null;
        // Re-draw only what changed: a button replaced under a thumb is a
        // lost tap.
        const seen = JSON.stringify([table, round]);
        changed = seen !== this.seen || !this.shown;
        Object.assign(this, { table, round, seen });
      } catch (err) {
        if (!this.table) return this.fatal(err);
      } finally {
        this.loading = null;
      }
      if (changed || this.tab !== 'play') this.render();
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    })();
    return this.loading;
  }

  /** setRound shows a round an action just returned, without a refetch. */
  setRound(round) {
    this.round = round;
    this.table.pot = round.pot;
    this.render();
    this.refresh();
  }

  fatal(err) {
    replace(main, h('section.card', h('h2', 'Cannot open this table'), h('p.error', err.message),
      h('a.button', { href: '#' }, 'Home')));
  }

  render() {
    if (!this.table) return;
    const [, tab] = TABS[this.tab] || TABS.play;
    const body = h('div.tabbody', { 'data-testid': `tab-${this.tab}` });
    this.shown = true;
    replace(main, header(this), body, tabBar(this));
    tab(body, this);
  }

  close() {
    this.stop();
  }
}

// header shows the table, this phone's role, and the point, hammer and pot,
// which stay visible on every tab.
function header(s) {
  const r = s.round && s.round.status === 'playing' ? s.round : null;
  const who = s.role === 'host' ? 'Host phone' : s.role === 'player' ? `You: ${s.name(s.me)}` : 'Read only';
  const cell = (label, value, id) => h('div.stat', { 'data-testid': id }, h('span.label', label), h('span.value', value));
  return h('header.top',
    h('div.title', h('a.home', { href: '#', 'aria-label': 'home' }, '⌂'), h('h1', s.table.name), h('span.role', who)),
    h('div.stats',
      cell('Pot', `${r ? r.pot : s.table.pot}`, 'pot'),
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
  session.tab = TABS[tab] ? tab : 'play';
  if (session.table) session.render();
  session.refresh();
}

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  window.scrollTo(0, 0);
  if (params.has('t')) return openTable(Number(params.get('t')), params.get('tab'));
  closeSession();
  if (params.has('join')) return joinScreen(main, params.get('join'), params.getAll('seat'));
  if (params.has('new')) return startScreen(main);
  return homeScreen(main);
}

window.addEventListener('hashchange', route);
route();
