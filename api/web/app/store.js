// store.js keeps each table's tokens in localStorage, so a reload (or a
// phone that slept through a round) resumes where it was.

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

/** table is the saved entry for a table id, or undefined. */
export function table(id) {
  return tables().find((t) => t.id === Number(id));
}

/**
 * save stores what this phone holds for a table: {id, name, role, token,
 * playerId?, auditToken?, code?}. A later save merges into the entry.
 */
export function save(entry) {
  const all = JSON.parse(localStorage.getItem(KEY) || '{}');
  all[entry.id] = { ...all[entry.id], ...entry, used: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** forget drops a table from this phone. */
export function forget(id) {
  const all = JSON.parse(localStorage.getItem(KEY) || '{}');
  delete all[id];
  localStorage.setItem(KEY, JSON.stringify(all));
}
