// @ts-check
// store.js keeps each table's tokens in localStorage, so a reload (or a
// phone that slept through a round) resumes where it was, and the latest
// chain head the phone saw of each table, which the audit is asked to find
// in the history.

const KEY = 'tally.tables';

/** tables lists the saved tables, most recently used first. */
export function tables() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || '{}');
    return Object.values(all).sort((a, b) => (b.used || 0) - (a.used || 0));
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

/** table is the saved entry for a table id, or undefined. */
export function table(id) {
  return tables().find((t) => t.id === Number(id));
}

/**
 * save stores what this phone holds for a table: {id, name, role, token,
 * playerId?, auditToken?, code?, kind? ("crew"), crew? (a night's crew),
 * hostToken? (a crew's, kept by the member who started it)}. A later save
 * merges into the entry.
 */
export function save(entry) {
  const all = JSON.parse(localStorage.getItem(KEY) || '{}');
  all[entry.id] = { ...all[entry.id], ...entry, used: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** forget drops a table from this phone, and what it last read of it. */
export function forget(id) {
  const all = JSON.parse(localStorage.getItem(KEY) || '{}');
  delete all[id];
  localStorage.setItem(KEY, JSON.stringify(all));
  localStorage.removeItem(`${VIEW}${id}`);
}

// VIEW prefixes the key of what the phone last read of a table.
const VIEW = 'tally.view.';

/**
 * keepView keeps what this phone's token last read of a table (its JSON
 * text), so the app opened with no network shows the table as it last was
 * rather than nothing. It is this phone's own view: a closed roll it may
 * not read was never in it.
 */
export function keepView(id, text) {
  try {
    localStorage.setItem(`${VIEW}${id}`, text);
  } catch {
    // Storage full or switched off: the app opens online only.
  }
}

/** view is what keepView kept of a table, parsed, or null. */
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
 */
export function sawHead(id, text) {
  const m = HEAD.exec(text || '');
  if (!m) return;
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || '{}');
    const entry = all[id];
    const seq = Number(m[1]);
    if (!entry || !entry.token || (entry.head && entry.head.seq >= seq)) return;
    entry.head = { seq, hash: m[2] };
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or switched off: the phone plays on without a witness.
  }
}

/** head is the latest head this phone saw of a table, "SEQ:HASH", or ''. */
export function head(id) {
  const t = table(id);
  return t && t.head ? `${t.head.seq}:${t.head.hash}` : '';
}
