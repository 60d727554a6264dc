// @ts-check
// store.js keeps each table's tokens in localStorage, so a reload (or a
// phone that slept through a round) resumes where it was, and the latest
// chain head the phone saw of each table, which the audit is asked to find
// in the history.

const KEY = 'tally.tables';

/**
 * Entry is what this phone holds for one table (or crew): the tokens it was
 * given and what it shows of the table before reading it.
 * @typedef {object} Entry
 * @property {number} id
 * @property {string} [name]
 * @property {'host' | 'player' | 'audit'} role
 * @property {string} token this phone's token for the table
 * @property {number} [playerId] the player this phone plays (0: none)
 * @property {string} [playerName]
 * @property {string} [auditToken] the host's token for the audit
 * @property {string} [code] the join code
 * @property {'crew'} [kind] a crew, not a table
 * @property {number} [crew] the crew a night belongs to
 * @property {string} [hostToken] a crew's host token, kept by the member who started it
 * @property {boolean} [closed] the table was seen closed
 * @property {number} [used] when this phone last saved it (ms since 1970)
 * @property {{ seq: number, hash: string }} [head] the latest chain head seen (sawHead)
 */

/** @returns {Record<string, Entry>} every entry, by table id */
function all() {
  return JSON.parse(localStorage.getItem(KEY) || '{}');
}

/** tables lists the saved tables, most recently used first. @returns {Entry[]} */
export function tables() {
  try {
    return Object.values(all()).sort((a, b) => (b.used || 0) - (a.used || 0));
  } catch {
    return [];
  }
}

/**
 * crews lists the saved crews (entries of kind "crew"), most recently used
 * first. A crew is kept like a table, with the member's token: the same
 * chain heads are witnessed for it.
 */
export function crews() {
  return tables().filter((t) => t.kind === 'crew');
}

/** table is the saved entry for a table id, or undefined. @param {number | string} id */
export function table(id) {
  return tables().find((t) => t.id === Number(id));
}

/**
 * save stores what this phone holds for a table: {id, name, role, token,
 * playerId?, auditToken?, code?, kind? ("crew"), crew? (a night's crew),
 * hostToken? (a crew's, kept by the member who started it)}. A later save
 * merges into the entry (a new entry names at least its role and token).
 * @param {{ id: number } & Partial<Entry>} entry
 */
export function save(entry) {
  const entries = all();
  entries[entry.id] = { ...entries[entry.id], ...entry, used: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(entries));
}

/** forget drops a table from this phone, and what it last read of it. @param {number} id */
export function forget(id) {
  const entries = all();
  delete entries[id];
  localStorage.setItem(KEY, JSON.stringify(entries));
  localStorage.removeItem(`${VIEW}${id}`);
}

// VIEW prefixes the key of what the phone last read of a table.
const VIEW = 'tally.view.';

/**
 * keepView keeps what this phone's token last read of a table (its JSON
 * text), so the app opened with no network shows the table as it last was
 * rather than nothing. It is this phone's own view: a closed roll it may
 * not read was never in it.
 * @param {number} id
 * @param {string} text
 */
export function keepView(id, text) {
  try {
    localStorage.setItem(`${VIEW}${id}`, text);
  } catch {
    // Storage full or switched off: the app opens online only.
  }
}

/**
 * view is what keepView kept of a table, parsed, or null: unknown, since
 * an older version of the app may have written it (the reader checks).
 * @param {number} id
 * @returns {unknown}
 */
export function view(id) {
  try {
    return JSON.parse(localStorage.getItem(`${VIEW}${id}`) || 'null');
  } catch {
    return null;
  }
}

// HEAD is a chain head as the server writes it: "SEQ:HASH", the last
// event's sequence number and its SHA-256 in hex.
const HEAD = /^([1-9][0-9]{0,15}):([0-9a-f]{64})$/;

/**
 * sawHead keeps a head this phone saw of a table (from a write's Tally-Head
 * or the live stream) if it is later than the one kept. A head of an event
 * already kept does not replace it: the first one seen is what the audit
 * is asked to find. Only tables this phone holds a token for keep heads.
 * @param {number} id
 * @param {string | null} text
 */
export function sawHead(id, text) {
  const m = HEAD.exec(text || '');
  if (!m) return;
  try {
    const entries = all();
    const entry = entries[id];
    const seq = Number(m[1]);
    if (!entry || !entry.token || (entry.head && entry.head.seq >= seq)) return;
    entry.head = { seq, hash: m[2] };
    localStorage.setItem(KEY, JSON.stringify(entries));
  } catch {
    // Storage full or switched off: the phone plays on without a witness.
  }
}

/** head is the latest head this phone saw of a table, "SEQ:HASH", or ''. @param {number} id */
export function head(id) {

  const t = table(id);
  return t && t.head ? `${t.head.seq}:${t.head.hash}` : '';
}
