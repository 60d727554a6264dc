package royale

import (
	"encoding/hex"
	"slices"

	"github.com/tally-dice/tally/game"
)

// View is the game as one viewer may see it. Hand, Fleet and Salt are set only for the viewer's own
// player; Revealed only once the game is over.
type View struct {
	Phase       Phase                    `json:"phase"`
	Options     Options                  `json:"options"`
	Turn        game.PlayerID            `json:"turn,omitempty"`
	Die         int                      `json:"die,omitempty"`         // this turn's value, 0 before the roll
	ShotsLeft   int                      `json:"shotsLeft"`             // the die's shots not yet fired this turn
	CanSonar    bool                     `json:"canSonar"`              // the turn's player may use sonar now
	Pot         int64                    `json:"pot"`                   // what the pot holds
	Players     []PlayerView             `json:"players"`               // seat order
	Board       []Peg                    `json:"board"`                 // every shot cell, board order
	SunkCards   []Sinking                `json:"sunkCards"`             // in the order they sank
	Sonar       []SonarCall              `json:"sonar"`                 // in order
	Commitments map[game.PlayerID]string `json:"commitments,omitempty"` // hex, once playing
	Result      *Result                  `json:"result,omitempty"`
	Hand        Fleet                    `json:"hand,omitempty"`     // own dealt hand while choosing (index = discard number)
	Fleet       []FleetCard              `json:"fleet,omitempty"`    // own kept/entered cards
	Salt        []byte                   `json:"salt,omitempty"`     // own salt (so a player can check their own commitment)
	Revealed    []Revealed               `json:"revealed,omitempty"` // every fleet and salt, once over
}

// PlayerView is one player as everyone sees them.
type PlayerView struct {
	Player     game.PlayerID `json:"player"`
	Ready      bool          `json:"ready"` // fleet kept or entered
	Cards      int           `json:"cards"` // cards in the fleet (0 until ready)
	Afloat     int           `json:"afloat"`
	Eliminated bool          `json:"eliminated"`
	BonusShots int           `json:"bonusShots"` // unused bonus shots (advanced: summed over unused trophies)
	Sonars     int           `json:"sonars"`     // sonars they may still use (advanced)
	Trophies   []Trophy      `json:"trophies"`   // cards they sank, in order
}

// Trophy is a card a player sank: whose it was, its kind, the bonus it
// gives (shots, or in the advanced game a submarine's sonar) and whether
// that bonus is used.
type Trophy struct {
	Owner game.PlayerID `json:"owner"`
	Kind  Kind          `json:"kind"`
	Shots int           `json:"shots"`
	Sonar bool          `json:"sonar"`
	Used  bool          `json:"used"`
}

// Peg is one shot cell of the board: State "miss" | "hit" | "sunk", and
// Hits the cards the shot hit there.
type Peg struct {
	Cell  Cell   `json:"cell"`
	State string `json:"state"`
	Hits  int    `json:"hits"`
}

// SonarCall is one sonar used: who called which line and the answer.
type SonarCall struct {
	Player game.PlayerID `json:"player"`
	Line   string        `json:"line"`
	Ping   bool          `json:"ping"`
}

// FleetCard is one card of the viewer's own fleet: which of its cells are
// hit, and whether it sank.
type FleetCard struct {
	Card
	Hit  []Cell `json:"hit"`
	Sunk bool   `json:"sunk"`
}

// Revealed is one player's fleet and salt, shown to all at the end so
// anyone can check them against the commitments.
type Revealed struct {
	Player game.PlayerID `json:"player"`
	Fleet  Fleet         `json:"fleet"`
	Salt   []byte        `json:"salt"`
}

// View is the game as viewer sees it; viewer 0 is anyone (the public
// view). Everything but Hand, Fleet and Salt is the same for every viewer.
func (g *Game) View(viewer game.PlayerID) View {
	v := View{
		Phase: g.phase, Options: g.opts, Turn: g.Turn(), Die: g.t.die, CanSonar: g.canSonar(), Pot: g.Pot(),
		Players: make([]PlayerView, len(g.seats)), Board: g.pegs(),
		SunkCards: make([]Sinking, len(g.sunk)), Sonar: slices.Clone(g.sonar),
	}
	if v.Sonar == nil {
		v.Sonar = []SonarCall{}
	}
	if g.phase == PhasePlaying && g.t.die > 0 {
		// Never more than the cells nobody has shot: the volley is all of
		// them when fewer are left than the die says.
		if g.opts.Mode == Standard {
			v.ShotsLeft = min(g.t.die-g.t.fired, g.unshot)
		} else if !g.t.volley {
			v.ShotsLeft = min(g.t.die, g.unshot)
		}
	}
	for i, sk := range g.sunk {
		v.SunkCards[i] = sk
		v.SunkCards[i].Card = cloneFleet(Fleet{sk.Card})[0]
	}
	for i, s := range g.seats {
		v.Players[i] = PlayerView{Player: s.player, Ready: s.fleet != nil, Cards: len(s.fleet), Afloat: s.afloat,
			Eliminated: s.eliminated, BonusShots: g.bonusShots(i), Sonars: g.sonars(i),
			Trophies: append([]Trophy{}, s.trophies...)}
	}
	if c := g.Commitments(); c != nil {
		v.Commitments = make(map[game.PlayerID]string, len(c))
		for p, h := range c {
			v.Commitments[p] = hex.EncodeToString(h[:])
		}
	}
	if g.result != nil {
		v.Result = cloneResult(g.result)
		for _, s := range g.seats {
			if s.fleet == nil {
				continue // abandoned before this player's fleet was in: nothing to reveal
			}
			v.Revealed = append(v.Revealed, Revealed{Player: s.player, Fleet: cloneFleet(s.fleet), Salt: slices.Clone(s.salt)})
		}
	}
	if i := g.seatOf(viewer); i >= 0 && viewer != 0 {
		g.own(&v, i)
	}
	return v
}

// own adds seat i's own hand, fleet and salt to their view.
func (g *Game) own(v *View, i int) {
	s := &g.seats[i]
	if g.phase == PhaseFleets && s.fleet == nil {
		v.Hand = cloneFleet(s.hand)
	}
	for j, c := range s.fleet {
		fc := FleetCard{Card: cloneFleet(Fleet{c})[0], Hit: []Cell{}, Sunk: s.sunk[j]}
		for _, x := range c.Cells {
			if g.board[index(x)] != unshotPeg {
				fc.Hit = append(fc.Hit, x)
			}
		}
		v.Fleet = append(v.Fleet, fc)
	}
	v.Salt = slices.Clone(s.salt)
}

// pegs are the board's shot cells in board order. A cell is "sunk" once
// every card that covered it has sunk; a sunk card's cell still under a
// card afloat shows "hit" (docs/royale.md §3, sunk markers).
func (g *Game) pegs() []Peg {
	out := []Peg{}
	for at, hits := range g.board {
		if hits == unshotPeg {
			continue
		}
		p := Peg{Cell: Cell{Row: at / Size, Col: at % Size}, State: "miss", Hits: int(hits)}
		if hits > 0 {
			p.State = "sunk"
			for _, r := range g.covers[at] {
				if !g.seats[r.seat].sunk[r.card] {
					p.State = "hit"
				}
			}
		}
		out = append(out, p)
	}
	return out
}
