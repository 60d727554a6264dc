package browsertest

import (
	"slices"
	"testing"
)

// TestAxeFailsAScreenThatBreaksItsRules: the check every saved screen goes
// through finds what the bar night found. The form to start a table passes; given
// the Battleship Royale die button as it was (near-white "3" on cream,
// which axe itself only leaves for review), buttons placed directly in a
// grid, and a scroll area a keyboard cannot reach, it names each rule.
func TestAxeFailsAScreenThatBreaksItsRules(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	p := newPhone(t, startBrowser(t), srv.URL, "host")
	p.open("/#new")
	p.waitFor("the start form", `!!document.querySelector('form')`)
	if found := p.axeFind("start"); len(found) != 0 {
		t.Fatalf("the start screen breaks axe's rules: %+v", found)
	}
	// Styles are set through the CSSOM: the app's Content-Security-Policy
	// refuses inline style attributes.
	eval[bool](p, `(() => {
  const main = document.querySelector('main');
  const die = Object.assign(document.createElement('button'), {type: 'button', textContent: '3'});
  Object.assign(die.style, {color: '#f4f4f4', background: '#f5f1e6', border: '0'});
  const grid = document.createElement('div');
  grid.setAttribute('role', 'grid');
  grid.setAttribute('aria-label', 'board');
  grid.append(Object.assign(document.createElement('button'), {type: 'button', textContent: 'A1'}));
  const scroller = document.createElement('div');
  Object.assign(scroller.style, {width: '80px', height: '40px', overflow: 'auto'});
  const wide = Object.assign(document.createElement('p'), {textContent: 'A row of cells wider than the screen, read by scrolling'});
  Object.assign(wide.style, {width: '400px', whiteSpace: 'nowrap'});
  scroller.append(wide);
  main.append(die, grid, scroller);
  return true;
})()`)
	var ids []string
	for _, v := range p.axeFind("broken") {
		ids = append(ids, v.ID)
	}
	for _, want := range []string{"color-contrast", "aria-required-children", "scrollable-region-focusable"} {
		if !slices.Contains(ids, want) {
			t.Errorf("axe did not report %s on a screen that breaks it; it reported %v", want, ids)
		}
	}
}
