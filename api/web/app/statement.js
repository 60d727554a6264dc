// @ts-check
// statement.js is the printable statement's page (/app/statement.html#t=ID,
// docs/payments.md §6), opened by "Print the statement" in a window of its
// own: it reads GET statement.html with the token this phone holds for the
// table (or crew), as the CSV is read, and shows the server's page in its
// own, whose stylesheet (statement.css) is made for paper. The server's
// page is parsed, never run: it has no script, and DOMParser runs none.

import * as api from './api.js';
import * as store from './store.js';

const main = /** @type {HTMLElement} */ (document.getElementById('statement'));

/** say replaces the page with one line of text. @param {string} text */
function say(text) {
  const p = document.createElement('p');
  p.textContent = text;
  main.replaceChildren(p);
}

async function show() {
  const id = Number(new URLSearchParams(location.hash.slice(1)).get('t'));
  const entry = id ? store.table(id) : undefined;
  if (!entry) {
    say('This phone holds no table of that number: open the statement from the table’s Money tab.');
    return;
  }
  try {
    const file = await api.statement({ id, token: entry.token });
    const page = new DOMParser().parseFromString(await file.blob.text(), 'text/html');
    const got = page.querySelector('main.statement');
    if (!got) throw new Error('the server sent no statement');
    document.title = page.title;
    const print = document.createElement('button');
    print.type = 'button';
    print.className = 'noprint';
    print.textContent = 'Print or save as PDF';
    print.addEventListener('click', () => window.print());
    main.replaceChildren(print, ...[...got.childNodes].map((n) => document.adoptNode(n)));
  } catch (err) {
    say('The statement could not be read: ' + (err instanceof Error ? err.message : String(err)));
  }
}

show();
