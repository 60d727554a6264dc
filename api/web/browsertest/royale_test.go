package browsertest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// These tests play Battleship Royale on three phones at 390x844: the host's
// phone, which plays Ann (or, in the advanced game, chooses the fleet of
// Ann, who has no phone), and Bob's and Cy's. Every action is a tap in the app. To keep a game short, the
// test reads each fleet through the API with its owner's token (the host's
// for Ann's) to choose which cells to tap, as a player who knew the board
// would.

// play plays the game to its end by taps: each turn the phone of the
// player whose turn it is (the host's for Ann) sonars when it may
// (advanced), rolls or enters the die, taps the cells to shoot and fires,
// uses every bonus, and ends the turn. Every shot must show on another
// phone, live.
func (rt *royaleTable) play(advanced, tallyDie bool) {
	for turn := 0; ; turn++ {
		if turn > 120 {
			rt.t.Fatal("the game did not end in 120 turns")
		}
		g := rt.game("Ann")
		if g.Phase == "over" {
			return
		}
		rt.noPeeking()
		name := rt.names[g.Turn]
		rt.t.Logf("turn %d: %s, die %d, shots left %d", turn, name, g.Die, g.ShotsLeft)
		p := rt.phones[name]
		other := rt.phones[rt.order[(slices.Index(rt.order, name)+1)%3]]
		p.waitFor("the turn's controls", `!!document.querySelector('[data-testid=roll], [data-testid=die-1]')`)
		rt.shotOnce(p, "turn")
		if advanced && g.CanSonar {
			line := rt.targets(name)[0][:1]
			eval[bool](p, selectJS(`[data-testid=sonar-line]`, line))
			rt.shotOnce(p, "sonar")
			p.tap(`[data-testid=sonar]`)
			other.waitFor("the sonar call, live", `(document.querySelector('[data-testid=log]')?.textContent || '').includes('sonar on row `+line+`')`)
		}
		rolled := func(g game) bool { return g.Die > 0 }
		if tallyDie {
			rt.tapUntil(p, `[data-testid=roll]`, rolled)
		} else {
			rt.tapUntil(p, fmt.Sprintf(`[data-testid=die-%d]`, turn%3+1), rolled)
		}
		p.waitFor("the die", `(document.querySelector('[data-testid=next]')?.textContent || '').startsWith('Die:')`)
		for {
			g = rt.game("Ann")
			if g.Phase != "playing" || rt.names[g.Turn] != name {
				break
			}
			var kind string
			n := 0
			me := g.player(rt.ids[name])
			switch {
			case g.ShotsLeft > 0 && advanced:
				kind, n = "fire", g.ShotsLeft
			case g.ShotsLeft > 0:
				kind, n = "fire", 1
			case !advanced && me.BonusShots > 0:
				kind, n = "bonus", 1
			case advanced && me.BonusShots > 0:
				for i, tr := range me.Trophies {
					if !tr.Used && tr.Shots > 0 {
						kind, n = fmt.Sprintf("bonus-%d", i+1), tr.Shots
						break
					}
				}
			}
			if kind == "" {
				before := len(rt.game("Ann").Board)
				rt.tapUntil(p, `[data-testid=end-turn]`, func(g game) bool { return rt.names[g.Turn] != name || len(g.Board) != before })
				break
			}
			cells := rt.targets(name)[:n]
			for _, c := range cells {
				p.tap(`button.cell[data-cell="` + c + `"]`)
			}
			if advanced && n > 1 {
				rt.shotOnce(p, "volley-aimed")
			} else {
				rt.shotOnce(p, "aimed")
			}
			shots := len(g.Board)
			rt.tapUntil(p, `[data-testid=`+kind+`]`, func(g game) bool { return len(g.Board) > shots })
			last := cells[len(cells)-1]
			other.waitFor("the shot on another phone, live", `/(miss|hit|sunk)/.test(document.querySelector('button.cell[data-cell="`+last+`"]')?.className || '')`)
			if turn == 4 {
				for _, q := range rt.phones {
					rt.shotOnce(q, "board")
				}
			}
		}
	}
}

// tapUntil taps sel on p until the game (as the API reads it) shows the
// tap took effect: a redraw that lands between finding a button and
// tapping it swallows the tap, as it would a thumb's, and the thumb taps
// again (the same Idempotency-Key guards a tap that did arrive).
func (rt *royaleTable) tapUntil(p *phone, sel string, done func(game) bool) {
	rt.t.Helper()
	for try := 1; ; try++ {
		p.tap(sel)
		for wait := 0; wait < 30; wait++ {
			if done(rt.game("Ann")) {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		if try == 3 {
			p.save("tap-failed", chromedp.CaptureScreenshot())
			rt.t.Fatalf("%s: tapping %s three times changed nothing", p.name, sel)
		}
	}
}

// player is player id as the game shows them.
func (g game) player(id int64) struct {
	Player     int64 `json:"player"`
	BonusShots int   `json:"bonusShots"`
	Eliminated bool  `json:"eliminated"`
	Trophies   []struct {
		Shots int  `json:"shots"`
		Used  bool `json:"used"`
	} `json:"trophies"`
} {
	for _, p := range g.Players {
		if p.Player == id {
			return p
		}
	}
	return g.Players[0]
}

// checkBoard checks, on every phone, that the board's cells are 48px
// squares at 390px and that only the phone's own fleet (the host's: the
// one it holds for Ann) is drawn on it. It runs before anything sinks.
func (rt *royaleTable) checkBoard() {
	for _, name := range rt.order {
		p := rt.phones[name]
		size := eval[[]float64](p, `(() => { const r = document.querySelector('button.cell').getBoundingClientRect(); return [r.width, r.height]; })()`)
		if size[0] < 48 || size[1] < 48 {
			rt.t.Errorf("%s: a board cell is %vx%v px, under 48", name, size[0], size[1])
		}
		drawn := eval[[]string](p, `[...document.querySelectorAll('button.cell.ship')].map((b) => b.dataset.cell)`)
		// The host's phone draws the fleet it holds for Ann.
		own := rt.afloat(name)
		slices.Sort(drawn)
		slices.Sort(own)
		own = slices.Compact(own) // a submarine may share a ship's cell
		if !slices.Equal(drawn, own) {
			rt.t.Errorf("%s's phone draws ships on %v; its own fleet is %v", name, drawn, own)
		}
	}
}

// checkEnd waits for the result on every phone, with every fleet checked
// against its commitment in the browser.
func (rt *royaleTable) checkEnd() {
	g := rt.game("Ann")
	if g.Result == nil || len(g.Result.Winners) == 0 {
		rt.t.Fatalf("no result: %+v", g)
	}
	winner := rt.names[g.Result.Winners[0]]
	for _, name := range rt.order {
		p := rt.phones[name]
		p.waitText(`[data-testid=royale-result]`, winner)
		p.waitText(`[data-testid=commitments]`, "✓ Every fleet is the one sealed when play began (3 commitments checked)")
		rt.clean(p, "result")
		p.shot("result")
	}
	host := rt.phones["Ann"]
	host.tap(`[data-testid=go-history]`)
	host.waitText("main", "Game 1")
	host.shot("history")
}

// selectJS chooses value in a select and tells the page, as a thumb on
// the picker would.
func selectJS(sel, value string) string {
	return fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, sel, value)
}

// inView is a script that says where the element matching sel is on the
// screen: its rectangle, and whether all of it is in view, between the
// header and the tab bar, inside the board's scroll area clear of the row
// letters when it is on the board, and uncovered where a thumb would tap
// it (nothing floats over its middle: the fire buttons, the host's notices
// of phones that joined).
func inView(sel string) string {
	return fmt.Sprintf(`(() => {
  const el = document.querySelector(%q);
  if (!el) return {seen: false, why: 'not on the page'};
  const r = el.getBoundingClientRect();
  const top = document.querySelector('header.top').getBoundingClientRect().bottom;
  const bottom = document.querySelector('nav.tabs').getBoundingClientRect().top;
  const box = {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  const why = [];
  if (r.top < top) why.push('above the screen, under the header (' + top + ')');
  if (r.bottom > bottom) why.push('below the screen, under the tab bar (' + bottom + ')');
  if (r.left < 0 || r.right > innerWidth) why.push('off the side of the screen');
  const scroller = el.closest('.boardscroll');
  if (scroller) {
    const s = scroller.getBoundingClientRect();
    const label = scroller.querySelector('.rowlabel').getBoundingClientRect();
    if (r.left < label.right || r.right > s.right) why.push('scrolled out of the board (' + label.right + '-' + s.right + ')');
  }
  const bar = document.querySelector('.firebar');
  if (bar && !bar.contains(el) && r.bottom > bar.getBoundingClientRect().top) why.push('under the fire buttons');
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!el.contains(hit)) why.push('covered by ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing'));
  return {seen: !why.length, why: why.join('; '), box};
})()`, sel)
}

// where is what inView says.
type where struct {
	Seen bool               `json:"seen"`
	Why  string             `json:"why"`
	Box  map[string]float64 `json:"box"`
}

// tapWhereItIs taps the middle of the element matching sel where it is on
// the screen now, without scrolling anything first, as a thumb taps what
// it sees.
func (p *phone) tapWhereItIs(sel string) {
	p.t.Helper()
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	p.do(chromedp.TapXY(xy[0], xy[1]))
}

// fireAtTheFarCorner is the first turn on the host's phone, at 390px,
// where the board is wider than the screen and scrolls sideways: Ann's
// die shows 1, and the thumb swipes the board to its last columns and the
// page down until its last row sits above the Fire button, taps J10 where
// it is, and fires. Aiming keeps the board where the thumb took it, J10
// and its Fire button both on the screen and uncovered; firing leaves the
// board there too. The host has not yet read the notices of Bob's and
// Cy's phones joining, which float above the tab bar: the Fire button is
// held above them. Then the host reads them (OK), and Ann ends her turn.
func (rt *royaleTable) fireAtTheFarCorner() {
	t := rt.t
	g := rt.game("Ann")
	if name := rt.names[g.Turn]; name != "Ann" {
		t.Fatalf("the game starts with %s, want Ann on the host's phone", name)
	}
	p := rt.phones["Ann"]
	if w := eval[float64](p, `innerWidth`); w != 390 {
		t.Fatalf("the host's phone is %vpx wide, want 390", w)
	}
	rt.tapUntil(p, `[data-testid=die-1]`, func(g game) bool { return g.Die > 0 })
	p.waitText(`[data-testid=next]`, "Die: 1")
	p.waitFor("the fire button", `!!document.querySelector('[data-testid=fire]')`)
	p.settle()
	if n := eval[int](p, `document.querySelectorAll('[data-testid=notice-ok]').length`); n != 2 {
		t.Fatalf("the host's phone shows %d notices of phones that joined, want Bob's and Cy's", n)
	}
	eval[bool](p, `(() => {
  const cell = document.querySelector('[data-cell=J10]');
  cell.scrollIntoView({block: 'nearest', inline: 'end'});
  window.scrollBy(0, cell.getBoundingClientRect().bottom - document.querySelector('.firebar').getBoundingClientRect().top + 8);
  return true;
})()`)
	left := eval[float64](p, `document.querySelector('.boardscroll').scrollLeft`)
	if left == 0 {
		t.Fatal("the board did not scroll sideways: at 390px its last columns should be off the screen at first")
	}
	if at := eval[where](p, inView(`[data-cell=J10]`)); !at.Seen {
		t.Fatalf("before aiming, J10 is not in view: %s %v", at.Why, at.Box)
	}
	p.tapWhereItIs(`[data-cell=J10]`)
	p.waitFor("J10 aimed", `document.querySelector('[data-cell=J10]')?.classList.contains('sel')`)
	p.waitText(`[data-testid=fire]`, "Fire at J10")
	p.settle()
	if got := eval[float64](p, `document.querySelector('.boardscroll').scrollLeft`); got != left {
		t.Errorf("aiming moved the board sideways from %v to %v", left, got)
	}
	for _, sel := range []string{`[data-cell=J10]`, `[data-testid=fire]`} {
		if at := eval[where](p, inView(sel)); !at.Seen {
			t.Errorf("aimed at J10, %s is not in view: %s %v", sel, at.Why, at.Box)
		}
	}
	p.view("aimed-far-corner")
	p.tapWhereItIs(`[data-testid=fire]`)
	p.waitFor("the shot at J10", `/(miss|hit)/.test(document.querySelector('[data-cell=J10]').className)`)
	p.settle()
	if got := eval[float64](p, `document.querySelector('.boardscroll').scrollLeft`); got != left {
		t.Errorf("firing moved the board sideways from %v to %v", left, got)
	}
	if at := eval[where](p, inView(`[data-cell=J10]`)); !at.Seen {
		t.Errorf("fired at J10, it is not in view: %s %v", at.Why, at.Box)
	}
	if at := eval[where](p, inView(`[data-testid=end-turn]`)); !at.Seen {
		t.Errorf("fired, End the turn is not in view: %s %v", at.Why, at.Box)
	}
	p.view("fired-far-corner")
	rt.seenJoins()
	rt.tapUntil(p, `[data-testid=end-turn]`, func(g game) bool { return rt.names[g.Turn] != "Ann" })
}

// seenJoins has the host read the notices of the phones that joined (OK
// on each), which float above the tab bar until then.
func (rt *royaleTable) seenJoins() {
	host := rt.phones["Ann"]
	for eval[bool](host, `!!document.querySelector('[data-testid=notice-ok]')`) {
		host.tap(`[data-testid=notice-ok]`)
		host.settle()
	}
}

// TestRoyaleStandardGameOnThreePhones: the host plays Ann from its phone.
func TestRoyaleStandardGameOnThreePhones(t *testing.T) {
	rt := newRoyaleTable(t, "standard", "real", true)
	rt.keepFleets()
	rt.checkBoard()
	rt.fireAtTheFarCorner()
	rt.play(false, false)
	rt.checkEnd()
}

// TestRoyaleAdvancedGameOnThreePhones: the host does not play; it holds
// the fleet of Ann, who has no phone.
func TestRoyaleAdvancedGameOnThreePhones(t *testing.T) {
	rt := newRoyaleTable(t, "advanced", "tally", false)
	rt.keepFleets()
	rt.checkBoard()
	rt.seenJoins()
	rt.play(true, true)
	rt.checkEnd()
}

// TestRoyaleAbandonOnThreePhones: the host starts a game and abandons it
// while the fleets are being chosen, after a confirmation; every phone
// shows the game abandoned and the pot back with its players.
func TestRoyaleAbandonOnThreePhones(t *testing.T) {
	rt := newRoyaleTable(t, "standard", "real", true)
	host := rt.phones["Ann"]
	host.tap(`[data-testid=go-play]`)
	host.tap(`[data-testid=start-game]`)
	rt.phones["Bob"].waitFor("the dealt hand", `document.querySelectorAll('[data-testid^=hand-]').length === 5`)
	// The notices of the phones that joined float above the tab bar, over
	// the foot of the host's long hand: read first.
	rt.seenJoins()
	host.tap(`[data-testid=abandon]`)
	host.waitText("main", "Abandon game 1? Nobody wins; the pot (6 coins) goes back")
	rt.shotOnce(host, "abandon-confirm")
	host.tap(`[data-testid=abandon-yes]`)
	for _, name := range rt.order {
		p := rt.phones[name]
		p.waitText(`[data-testid=royale-result]`, "Game 1 abandoned")
		p.waitText(`[data-testid=royale-result]`, name+" takes 2 coins")
		p.waitText(`[data-testid=pot] .value`, "0")
	}
	rt.shotOnce(rt.phones["Bob"], "abandoned")
}

// TestRoyaleFleetTypedFromTheBox: at an advanced table that plays with the
// box's cards, the host's phone holds the fleet of Ann, who has no phone,
// and gets the form to type her cards: the ship, its cells and its bonus
// number for each card, every field named for a screen reader.
func TestRoyaleFleetTypedFromTheBox(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"game": "royale", "players": []string{"Ann", "Bob", "Cy"},
		"royale": map[string]any{"mode": "advanced", "fleet": "entered", "die": "real"}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	host.tap(`[data-testid=start-game]`)
	host.tap(`[data-testid=hold-Ann]`)
	host.tap(`[data-testid=hold-yes-Ann]`)
	host.waitFor("the form for Ann's cards", `document.querySelectorAll('[data-testid^=enter-cells-]').length === 3`)
	names := eval[[]string](host, `[...document.querySelectorAll('[data-testid=fleets] select, [data-testid=fleets] input')].map((el) => el.getAttribute('aria-label') || '')`)
	if len(names) != 9 || slices.Contains(names, "") {
		t.Errorf("the fields of the fleet form are named %q, want a ship, cells and a bonus number for each of 3 cards", names)
	}
	host.shot("enter-fleet")
}
