package browsertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

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
		if name == "Bob" {
			rt.shotOnce(p, "fleet-kept")
		}
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
