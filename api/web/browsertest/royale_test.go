package browsertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// These tests play Battleship Royale on three phones at 390x844: the host's
// phone, which plays Ann (or, in the advanced game, chooses the fleet of
// Ann, who has no phone), and Bob's and Cy's. Every action is a tap in the app. To keep a game short, the
// test reads each fleet through the API with its owner's token (the host's
// for Ann's) to choose which cells to tap, as a player who knew the board
// would.

// royaleTable is a Royale table on three phones.
type royaleTable struct {
	t      *testing.T
	srv    *server
	id     int64
	phones map[string]*phone // by who records for whom: Ann's turns on the host's phone
	tokens map[string]string // each phone's token, by player name
	ids    map[string]int64  // player ids by name
	names  map[int64]string  // and back
	order  []string          // the players in seat order
	seen   map[string]bool   // screenshots taken, by name
	opts   map[string]string // the start form's choices
	// hostPlays: the host's phone is Ann's own (the start form's default);
	// otherwise Ann has no phone and the host holds her fleet.
	hostPlays bool
}

// newRoyaleTable makes the table on the host's phone with the form's
// choices (mode, die, and whether the host plays Ann) and joins Bob and Cy
// by the QR code's link.
func newRoyaleTable(t *testing.T, mode, die string, hostPlays bool) *royaleTable {
	srv := startServer(t)
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.open("/")
	host.tap(`[data-testid=start]`)
	host.tap(`[data-testid=game-royale]`)
	host.waitText("main", "Battleship Royale")
	host.tap(`[data-testid=royale-mode-` + mode + `]`)
	host.tap(`[data-testid=royale-die-` + die + `]`)
	host.typeInto(`[data-testid=royale-ante]`, "2")
	host.typeInto(`[data-testid=royale-bounty]`, "1")
	host.typeInto(`input[name=currency]`, "coins")
	host.typeInto(`input[aria-label="player 1"]`, "Ann")
	host.typeInto(`input[aria-label="player 2"]`, "Bob")
	host.tap(`[data-testid=add-player]`)
	host.typeInto(`input[aria-label="player 3"]`, "Cy")
	if !hostPlays {
		host.tap(`[data-testid=host-none]`)
	}
	host.shot("start-form")
	host.tap(`[data-testid=create]`)
	host.waitFor("the QR code", `!!document.querySelector('[data-testid=qr] svg path')`)
	link := strings.TrimPrefix(eval[string](host, `document.querySelector('[data-testid=qr] svg').getAttribute('aria-label')`), "QR code for ")
	if seats := "&seat=Bob&seat=Cy"; hostPlays != !strings.Contains(link, "&seat=Ann") || !strings.HasSuffix(link, seats) {
		t.Fatalf("the join link is %s, with the host playing Ann %v", link, hostPlays)
	}
	rt := &royaleTable{t: t, srv: srv, phones: map[string]*phone{"Ann": host}, tokens: map[string]string{},
		ids: map[string]int64{}, names: map[int64]string{}, order: []string{"Ann", "Bob", "Cy"}, seen: map[string]bool{},
		hostPlays: hostPlays}
	for _, name := range []string{"Bob", "Cy"} {
		p := newPhone(t, browser, srv.URL, strings.ToLower(name))
		p.open(strings.TrimPrefix(link, srv.URL))
		p.waitSeats()
		p.tap(`button.seat[data-name="` + name + `"]`)
		p.waitText(`header .role`, "You: "+name)
		rt.phones[name] = p
	}
	saved := func(p *phone) (int64, string, int64) {
		var v struct {
			ID       int64  `json:"id"`
			Token    string `json:"token"`
			PlayerID int64  `json:"playerId"`
		}
		raw := eval[string](p, `JSON.stringify(Object.values(JSON.parse(localStorage.getItem('tally.tables')))[0])`)
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		return v.ID, v.Token, v.PlayerID
	}
	rt.id, rt.tokens["Ann"], _ = saved(host)
	for _, name := range []string{"Bob", "Cy"} {
		_, rt.tokens[name], rt.ids[name] = saved(rt.phones[name])
	}
	var table struct {
		Players []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"players"`
	}
	rt.get("", "Ann", &table)
	for _, p := range table.Players {
		rt.ids[p.Name], rt.names[p.ID] = p.ID, p.Name
	}
	return rt
}

// get reads a path of the table through the API with name's phone's token.
func (rt *royaleTable) get(path, name string, v any) {
	rt.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/v1/tables/%d%s", rt.srv.URL, rt.id, path), nil)
	req.Header.Set("Authorization", "Bearer "+rt.tokens[name])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		rt.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		rt.t.Fatalf("GET %s as %s: %d", path, name, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		rt.t.Fatal(err)
	}
}

// game is what the test reads of a game through the API.
type game struct {
	Phase     string `json:"phase"`
	Turn      int64  `json:"turn"`
	Die       int    `json:"die"`
	ShotsLeft int    `json:"shotsLeft"`
	CanSonar  bool   `json:"canSonar"`
	Players   []struct {
		Player     int64 `json:"player"`
		BonusShots int   `json:"bonusShots"`
		Eliminated bool  `json:"eliminated"`
		Trophies   []struct {
			Shots int  `json:"shots"`
			Used  bool `json:"used"`
		} `json:"trophies"`
	} `json:"players"`
	Board []struct {
		Cell string `json:"cell"`
	} `json:"board"`
	Fleet []struct {
		Cells []string `json:"cells"`
		Sunk  bool     `json:"sunk"`
	} `json:"fleet"`
	Held []struct {
		Player int64 `json:"player"`
		Fleet  []struct {
			Cells []string `json:"cells"`
			Sunk  bool     `json:"sunk"`
		} `json:"fleet"`
	} `json:"held"`
	Result *struct {
		Winners []int64 `json:"winners"`
	} `json:"result"`
}

func (rt *royaleTable) game(name string) game {
	rt.t.Helper()
	var g game
	rt.get("/royale/1", name, &g)
	return g
}

// afloat are the cells of name's cards still afloat, as their owner's
// phone (the host's, for Ann) reads them.
func (rt *royaleTable) afloat(name string) []string {
	g := rt.game(name)
	fleet := g.Fleet
	for _, h := range g.Held {
		if rt.names[h.Player] == name {
			fleet = h.Fleet
		}
	}
	var out []string
	for _, c := range fleet {
		if !c.Sunk {
			out = append(out, c.Cells...)
		}
	}
	return out
}

// targets are the cells shooter should tap, best first: the cells afloat
// of the others' fleets not shot yet, then the rest of the board.
func (rt *royaleTable) targets(shooter string) []string {
	g := rt.game("Ann")
	shot := map[string]bool{}
	for _, p := range g.Board {
		shot[p.Cell] = true
	}
	var out []string
	for _, name := range rt.order {
		if name == shooter {
			continue
		}
		for _, c := range rt.afloat(name) {
			if !shot[c] && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	for r := 'A'; r <= 'J'; r++ {
		for c := 1; c <= 10; c++ {
			if cell := fmt.Sprintf("%c%d", r, c); !shot[cell] && !slices.Contains(out, cell) {
				out = append(out, cell)
			}
		}
	}
	return out
}

// shotOnce takes a screenshot of the name once per test, after checking
// the screen shows no stray value a template let through.
func (rt *royaleTable) shotOnce(p *phone, name string) {
	if !rt.seen[p.name+name] {
		rt.seen[p.name+name] = true
		rt.clean(p, name)
		p.shot(name)
	}
}

// clean fails when the page shows "null", "undefined" or "NaN", the marks
// of a value drawn that should not have been.
func (rt *royaleTable) clean(p *phone, what string) {
	rt.t.Helper()
	if bad := eval[string](p, `(document.querySelector('main').innerText.match(/\b(null|undefined|NaN)\b/) || [''])[0]`); bad != "" {
		rt.t.Errorf("%s %s: the screen shows %q", p.name, what, bad)
	}
}

// noPeeking checks every phone draws ships only on cells of the fleets
// it may see: its own (the host's: the one it holds for Ann).
func (rt *royaleTable) noPeeking() {
	rt.t.Helper()
	for _, name := range rt.order {
		p := rt.phones[name]
		g := rt.game(name)
		mine := map[string]bool{}
		for _, c := range g.Fleet {
			for _, x := range c.Cells {
				mine[x] = true
			}
		}
		for _, h := range g.Held {
			for _, c := range h.Fleet {
				for _, x := range c.Cells {
					mine[x] = true
				}
			}
		}
		for _, c := range eval[[]string](p, `[...document.querySelectorAll('button.cell.ship')].map((b) => b.dataset.cell)`) {
			if !mine[c] {
				rt.t.Errorf("%s's phone draws a ship on %s, which is not in a fleet it may see", name, c)
			}
		}
	}
}

// keepFleets has Bob and Cy keep their hands on their phones, and the host
// keep Ann's: as hers when it plays her, with no hold and no warning, or
// by holding her fleet first when she has no phone.
func (rt *royaleTable) keepFleets() {
	host := rt.phones["Ann"]
	host.tap(`[data-testid=go-play]`)
	host.shot("start-game")
	host.tap(`[data-testid=start-game]`)
	for _, name := range []string{"Bob", "Cy"} {
		p := rt.phones[name]
		p.waitFor("the dealt hand", `document.querySelectorAll('[data-testid^=hand-]').length === 5`)
		p.tap(`[data-testid=hand-3]`)
		p.tap(`[data-testid=hand-4]`)
		rt.shotOnce(p, "hand")
		p.tap(`[data-testid=keep]`)
		p.waitFor("the fleet kept", `!!document.querySelector('[data-testid=fleet-kept]') || !!document.querySelector('[data-testid=whose-turn]')`)
	}
	if rt.hostPlays {
		// The host's own hand is on its phone at once: nothing to hold.
		host.waitFor("the host's own hand", `document.querySelectorAll('[data-testid^=hand-]').length === 5`)
		if eval[bool](host, `!!document.querySelector('[data-testid^=hold-]') || document.body.innerText.includes('Only do this if')`) {
			rt.t.Fatal("the host's phone asks to hold the fleet of the seat it plays")
		}
		host.shot("own-hand")
	} else {
		// Nothing of Ann's hand is on the host's phone before it holds it.
		if n := eval[int](host, `document.querySelectorAll('[data-testid^=hand-]').length`); n != 0 {
			rt.t.Fatalf("the host's phone shows %d cards of a hand before holding any", n)
		}
		host.tap(`[data-testid=hold-Ann]`)
		host.waitText(`[data-testid=fleets]`, "You will see Ann’s fleet")
		host.shot("hold-warning")
		host.tap(`[data-testid=hold-yes-Ann]`)
		host.waitFor("Ann's hand", `document.querySelectorAll('[data-testid^=hand-]').length === 5`)
	}
	host.tap(`[data-testid=hand-3]`)
	host.tap(`[data-testid=hand-4]`)
	host.tap(`[data-testid=keep]`)
	for _, name := range rt.order {
		rt.phones[name].waitFor("play to begin", `!!document.querySelector('[data-testid=whose-turn]')`)
	}
}

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

// TestRoyaleStandardGameOnThreePhones: the host plays Ann from its phone.
func TestRoyaleStandardGameOnThreePhones(t *testing.T) {
	rt := newRoyaleTable(t, "standard", "real", true)
	rt.keepFleets()
	rt.checkBoard()
	rt.play(false, false)
	rt.checkEnd()
}

// TestRoyaleAdvancedGameOnThreePhones: the host does not play; it holds
// the fleet of Ann, who has no phone.
func TestRoyaleAdvancedGameOnThreePhones(t *testing.T) {
	rt := newRoyaleTable(t, "advanced", "tally", false)
	rt.keepFleets()
	rt.checkBoard()
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
