// @ts-check
// crewstart.js is what the home screen offers for crews: "My crews" (the
// crews this phone is in), starting a crew and joining one. A crew is a
// group that plays night after night; its members join with its code like
// players join a table (the join screen, home.js, opens a crew's page when
// the code was a crew's).

import { h, replace, fieldValue, message } from './dom.js';
import * as api from './api.js';
import * as store from './store.js';

/**
 * CrewForm is the new crew as typed, and the writes being sent (kept so a
 * retry reuses their keys): making the crew, then claiming "you".
 * @typedef {{ name: string, currency: string, me: string, names: string[],
 *   request?: api.Write<api.Schemas['CreateCrewRequest'], api.CreatedTable> | null,
 *   join?: api.Write<api.Schemas['JoinRequest'], api.Joined> | null }} CrewForm
 */

/** crewsCard is the home screen's crew card: this phone's crews, start one, join one. @param {store.Entry[]} crews */
export function crewsCard(crews) {
  return h('section.card', { 'data-testid': 'crews' }, h('h2', 'Crews'),
    crews.length > 0 && h('div.list', { 'data-testid': 'my-crews' },
      crews.map((c) => h('a.button.row', { href: `#c=${c.id}`, dataset: { crew: c.id } },
        h('span', c.name || `Crew ${c.id}`),
        h('span.muted', c.role === 'player' ? `as ${c.playerName || 'member'}` : c.role === 'host' ? 'host' : 'read only')))),
    h('p.muted.small', 'A crew is a group that plays most Fridays: its nights add up to running balances you settle when you like.'),
    h('div.actions',
      h('a.button', { href: '#newcrew', 'data-testid': 'start-crew' }, 'Start a crew'),
      h('a.button', { href: '#join=', 'data-testid': 'join-crew' }, 'Join a crew')));
}

/**
 * crewStartScreen is the form that makes a crew: its name, its unit and
 * the first members, "you" first. The phone that makes it keeps the
 * crew's host token and, when a name was given for "you", claims that
 * member's seat, so it sees what it owes like every other member's phone.
 */
/** @param {HTMLElement} main */
export function crewStartScreen(main) {
  /** @type {CrewForm} */
  const form = { name: '', currency: '', me: '', names: ['', '', ''] };
  const error = h('p.error', { hidden: true, 'data-testid': 'crew-error' });
  /** @param {string} label @param {'name' | 'currency' | 'me'} key @param {import('./dom.js').Attrs} attrs */
  const field = (label, key, attrs) => h('label.field', label, h('input', { type: 'text', name: key, value: form[key],
    autocomplete: 'off', oninput: (e) => { form[key] = fieldValue(e); }, ...attrs }));
  const draw = () => replace(main,
    h('header.top', h('div.title', h('a.home', { href: '#', 'aria-label': 'home' }, '⌂'), h('h1', 'Start a crew'))),
    h('form.card.start', { onsubmit: (e) => makeCrew(e, form, error) },
      field('Crew name', 'name', { maxlength: 80, placeholder: 'Friday crew' }),
      field('Unit', 'currency', { maxlength: 24, placeholder: 'chips' }),
      field('Your name', 'me', { maxlength: 40, placeholder: 'You', 'data-testid': 'crew-me' }),
      h('fieldset', h('legend', 'The others (more can join with the code)'),
        form.names.map((n, i) => h('input.name', { type: 'text', maxlength: 40, value: n, 'aria-label': `member ${i + 2}`,
          placeholder: `Member ${i + 2}`, autocomplete: 'off', oninput: (e) => { form.names[i] = fieldValue(e); } })),
        form.names.length < 15 && h('button.ghost', { type: 'button', 'data-testid': 'add-member',
          onclick: () => { form.names.push(''); draw(); } }, '+ Add a member')),
      error,
      h('button.primary', { type: 'submit', 'data-testid': 'create-crew' }, 'Start the crew'),
      h('a.button.ghost', { href: '#' }, 'Cancel')));
  draw();
}

// makeCrew sends POST /v1/crews (one key for every retry of one body),
// then claims "you" among the members with the crew's code, and opens the
// crew's page.
/** @param {SubmitEvent} e @param {CrewForm} form @param {HTMLElement} error */
async function makeCrew(e, form, error) {
  e.preventDefault();
  const submitter = /** @type {HTMLButtonElement} */ (e.submitter);
  const me = form.me.trim();
  const members = [me, ...form.names.map((n) => n.trim())].filter(Boolean);
  /** @type {api.Schemas['CreateCrewRequest']} */
  const body = { members };
  if (form.name.trim()) body.name = form.name.trim();
  if (form.currency.trim()) body.currency = form.currency.trim();
  if (!form.request || JSON.stringify(form.request.body) !== JSON.stringify(body)) {
    form.request = api.createCrew(body);
    form.join = null;
  }
  submitter.disabled = true;
  try {
    const made = await api.send(form.request);
    const crew = made.table;
    /** @type {import('./store.js').Entry} */
    const entry = { id: crew.id,
 name: crew.name, kind: 'crew', role: 'host', token: made.hostToken, hostToken: made.hostToken,
      auditToken: made.auditToken, code: made.joinCode };
    if (me) {
      if (!form.join) form.join = api.join({ code: made.joinCode, name: me });
      const j = await api.send(form.join);
      Object.assign(entry, { role: 'player', token: j.playerToken, playerId: j.player.id, playerName: j.player.name });
    }
    store.save(entry);
    location.hash = `#c=${crew.id}`;
  } catch (err) {
    error.hidden = false;
    error.textContent = message(err);
    submitter.disabled = false;
  }
}
