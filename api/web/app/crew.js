// @ts-check
// crew.js is a crew's page (#c=ID): what this member owes and is owed
// across nights ("You owe Ann 4 chips"), the running balances, the
// settle-up with "Mark paid", the nights (join tonight's, add a closed one
// to the crew), starting tonight's table (nightform.js) and the crew's
// invite. A crew is a table of kind crew, so its settle-up, payments and
// live stream are the table endpoints under its id, and the Money tab's
// cards (money.js, owed.js) draw them: CrewPage answers what they ask of a
// table's session.

/** @typedef {import('./page.js').Page} Page */
/** @typedef {import('./page.js').UI} UI */
/** @typedef {import('./api.js').Table} Table */

/**
 * CrewData is what the crew page read last: the crew (its members, its
 * balances and its nights), its balances as the money cards take them, and
 * its settle-up (or why there is none yet).
 * @typedef {{ crew: api.Crew } & import('./page.js').MoneyData} CrewData
 */

/**
 * ReadyCrew is a CrewPage whose crew has been read: what its cards and
 * views are drawn for.
 * @typedef {CrewPage & { table: Table, data: CrewData }} ReadyCrew
 */
import { h, add, replace, typing, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';
import { watch } from './live.js';
import { yourMoneyCard } from './owed.js';
import { balancesCard, settleCard, exportCard } from './money.js';
import { handlesCard, unitValueCard } from './handles.js';
import { nightsCard } from './nights.js';
import { nightForm } from './nightform.js';
import { statsView, statsLink } from './crewstats.js';
import { groupCode, joinLink, qrSvg } from './invite.js';

/** @type {CrewPage | null} */
let page = null;

/**
 * openCrew shows crew id's page, or the view v of it ("night", "stats").
 * @param {HTMLElement} main
 * @param {number} id
 * @param {string} view
 */
export function openCrew(main, id, view) {
  const saved = store.table(id);
  if (!saved || saved.kind !== 'crew') {
    closeCrew();
    replace(main, h('section.card', h('h1', `Crew ${id}`), h('p', 'This phone is not in this crew. Ask a member for its code.'),
      h('a.button.primary', { href: '#join=' }, 'Join a crew'), h('a.button', { href: '#' }, 'Home')));
    return;
  }
  if (!page || page.id !== id) {
    closeCrew();
    page = new CrewPage(main, saved);
    store.save({ id });
  }
  page.view = view;
  page.ui.note = '';
  page.render(true);
  page.refresh();
}

/** closeCrew stops the open crew's live stream when another screen opens. */
export function closeCrew() {
  if (page) page.stop();
  page = null;
}

/**
 * CrewPage is one crew open on this phone: its data and its live stream.
 * @implements {Page}
 */
export class CrewPage {
  /** @param {HTMLElement} main @param {store.Entry} saved */
  constructor(main, saved) {
    this.main = main;
    this.id = saved.id;
    this.saved = saved;
    this.token = saved.token;
    this.role = saved.role;
    this.me = saved.playerId || 0;
    this.view = '';
    /** @type {CrewData | null} */
    this.data = null;
    /** @type {Table | null} */
    this.table = null; // the crew as a table: its members are its players
    this.stale = false;
    /** @type {UI} */
    this.ui = {};
    this.loading = null;
    this.again = false;
    /** @type {string | undefined} what was last drawn, as JSON */
    this.seen = undefined;
    // The live stream (live.js) also asks again whenever the phone wakes.
    const stop = watch(this.id, this.token, () => this.refresh(), () => {});
    // A night made for the crew changes nothing in the crew's own history,
    // so its stream does not tell: a page left open asks every 15 seconds,
    // so tonight's table shows up to join.
    const timer = setInterval(() => { if (document.visibilityState === 'visible') this.refresh(); }, 15000);
    this.stop = () => {
      stop();
      clearInterval(timer);
    };
  }

  /** name is a member's name by id ("the bank" for 0). @param {number} [id] */
  name(id) {
    if (!id) return 'the bank';
    const p = this.table && this.table.players.find((x) => x.id === id);
    return p ? p.name : `member ${id}`;
  }

  /**
   * read reads the crew (members, balances, nights) and its settle-up.
   * @returns {Promise<CrewData>}
   */
  async read() {
    const [crew, plan, handles] = await Promise.allSettled([api.crew(this), api.settleUp(this),
      this.role === 'audit' ? Promise.resolve([]) : api.handles(this)]);
    if (crew.status === 'rejected') throw crew.reason;
    const planned = plan.status === 'fulfilled' ? { value: plan.value }
      : { error: message(plan.reason), type: plan.reason instanceof api.Problem ? plan.reason.type : '' };
    return { crew: crew.value, balances: { value: crew.value.balances }, plan: planned,
      handles: { value: handles.status === 'fulfilled' ? handles.value : [] } };
  }

  /**
   * take keeps what load read; it says whether that changed anything.
   * @param {CrewData} data
   */
  take(data) {
    const seen = JSON.stringify(data);
    if (seen === this.seen) return false;
    const table = data.crew.crew;
    Object.assign(this, { data, seen, table });
    if (this.saved.name !== table.name) {
      this.saved = { ...this.saved, name: table.name };
      store.save({ id: this.id, name: table.name });
    }
    return true;
  }

  /**
   * refresh reads the crew again and redraws the page if it changed. One
   * read at a time: a refresh asked for while one is under way runs once
   * more after it, rather than racing it.
   * @returns {Promise<unknown>}
   */
  async refresh() {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        if (this.take(await this.read())) this.render();
      } catch (err) {
        if (!this.data) this.fatal(err);
      } finally {
        this.loading = null;
      }
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    })();
    return this.loading;
  }

  /** reloadMoney reads the crew again before a write says it is done (Page). */
  async reloadMoney() {
    this.take(await this.read());
  }

  // fatal says why the crew cannot be opened, and offers to forget it.
  /** @param {unknown} err */
  fatal(err) {
    replace(this.main, h('section.card', h('h1', 'Cannot open this crew'), h('p.error', message(err)),
      err instanceof api.Problem && [401, 404].includes(err.status) && h('button', { type: 'button',
        onclick: () => { store.forget(this.id); location.hash = '#'; } }, 'Remove it from this phone'),
      h('a.button', { href: '#' }, 'Home')));
  }

  /**
   * render draws the page. A redraw that comes from the live stream (force
   * false) waits while a field is being typed in, and for the forms, which
   * keep their own state, so nothing moves under a thumb.
   */
  render(force = false) {
    if (!page || page !== this) return;
    const body = this.main.querySelector('.crewbody');
    if (!force && body && (this.view || typing(body))) {
      this.stale = true;
      return;
    }
    this.stale = false;
    if (!this.data) {
      replace(this.main, header(this), h('p.card.muted', 'Loading the crew…'));
      return;
    }
    const c = /** @type {ReadyCrew} */ (/** @type {CrewPage} */ (this)); // data (and so table) is read: just checked
    const el = h('div.crewbody', { 'data-testid': `crew-${this.view || 'page'}` });
    replace(this.main, header(this), el);
    if (this.view === 'night') return nightForm(el, c);
    if (this.view === 'stats') return statsView(el, c);
    const cur = c.table.currency;
    add(el, this.ui.note && h('p.card.ok', { role: 'status' }, this.ui.note),
      yourMoneyCard(c, c.data),
      nightsCard(c, c.data.crew.nights),
      balancesCard(/** @type {api.Balances} */ (c.data.balances.value), cur, false, 'Running balances'), // always there: read with the crew
      settleCard(c, c.data.plan, cur),
      handlesCard(c, c.data.handles && c.data.handles.value),
      unitValueCard(c),
      exportCard(c),
      statsLink(c),
      inviteCard(c));
  }
}

// header names the crew and who this phone is in it.
/** @param {CrewPage} c */
function header(c) {
  const who = c.role === 'player' ? `You: ${c.saved.playerName || c.name(c.me)}` : c.role === 'host' ? 'Crew host' : 'Read only';
  const back = c.view ? `#c=${c.id}` : '#';
  return h('header.top', h('div.title', h('a.home', { href: back, 'aria-label': c.view ? 'back to the crew' : 'home' }, c.view ? '‹' : '⌂'),
    h('h1', (c.table && c.table.name) || c.saved.name || 'Crew'), h('span.role', who)));
}

// inviteCard shows the crew's code and its QR code, folded away: a new
// member's phone scans it and taps their name.
/** @param {ReadyCrew} c */
function inviteCard(c) {
  const code = c.table.joinCode || c.saved.code;
  if (!code) return null;
  const link = joinLink(c);
  return h('details.card.crewinvite', { 'data-testid': 'crew-invite', open: !!c.ui.invite, ontoggle: (e) => { c.ui.invite = /** @type {HTMLDetailsElement} */ (e.target).open; } },
    h('summary', 'Invite someone to the crew'),
    h('p.code', { 'data-testid': 'crew-code' }, groupCode(code)),
    h('div.qr', qrSvg(link)),
    h('p.muted.small', 'Scan with the phone camera, or open Tally, tap “Join a crew” and type the code.'),
    navigator.share && h('button.ghost', { type: 'button', onclick: () => navigator.share({ title: 'Tally crew', url: link }).catch(() => {}) },
      'Share the link'));
}

// A page left stale while a field had the focus is redrawn once the thumb
// has moved on; the pause lets a tap on a button land first.
document.addEventListener('focusout', () => setTimeout(() => {
  const body = page && page.main.querySelector('.crewbody');
  if (page && page.stale && !page.view && !(body && typing(body))) page.render();
}, 300));
