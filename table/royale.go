package table

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math/big"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
	"github.com/tally-dice/tally/ledger"
)

// This file is Battleship Royale at a table (docs/royale.md): games started with
// their antes, each action judged by the engine (package game/royale) and
// recorded with what it did, the money the engine decided (antes, bounties,
// the pot) posted to the same ledger as the dice games, and the fleets
// revealed when a game ends.

// RoyaleStartInput is what starting a game may say: who starts (the host
// picks; the seed says the youngest). The first seat starts by default.
type RoyaleStartInput struct {
	First game.PlayerID `json:"first,omitempty"`
}

// StartRoyale starts the table's next game: every seated player plays (2
// to 6), each antes, and with fleet dealt each is dealt a hand from a
// cryptographic random source. Only the host starts a game.
func (s *Service) StartRoyale(ctx context.Context, a Auth, k Key, in RoyaleStartInput) (Reply, error) {
	return s.royaleWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mustHost("start a game"); err != nil {
			return nil, err
		}
		if err := w.openTable(); err != nil {
			return nil, err
		}
		st := w.st
		if err := st.plays(db.GameRoyale); err != nil {
			return nil, err
		}
		if g := st.royalePlaying(); g != nil {
			return nil, fmt.Errorf("%w: game %d is still being played; finish it or abandon it first", ErrRoundPlaying, g.row.Number)
		}
		seats := st.seats()
		if len(seats) < royale.MinPlayers || len(seats) > royale.MaxPlayers {
			return nil, fmt.Errorf("%w: Battleship Royale is played by %d to %d players, and %d sit at the table",
				ErrInvalid, royale.MinPlayers, royale.MaxPlayers, len(seats))
		}
		setup := royale.Setup{Rules: royale.CurrentRules, Options: *st.row.Royale, Players: seats, First: in.First,
			CarriedPot: w.books().Balance(ledger.Pot)}
		if setup.First == 0 {
			setup.First = seats[0]
		}
		if setup.Options.Fleet == royale.Dealt {
			setup.Hands = make(map[game.PlayerID]royale.Fleet, len(seats))
			for _, p := range seats {
				hand, err := royale.DealHand(rand.Reader, setup.Options.Mode, len(seats))
				if err != nil {
					return nil, err
				}
				setup.Hands[p] = hand
			}
		}
		eng, err := royale.NewGame(setup)
		if err != nil {
			return nil, err
		}
		number := w.rounds + 1
		if antes := eng.Antes(); len(antes) > 0 {
			e := ledger.Antes(0, antes)
			e.Memo, e.Meta = gameMemo(number), royaleMeta{Game: number}
			if err := w.post(e); err != nil {
				return nil, err
			}
		}
		ev, err := w.emit("royale.started", royaleStarted{Game: number, Rules: setup.Rules, Options: setup.Options,
			Players: seats, First: setup.First, CarriedPot: setup.CarriedPot})
		if err != nil {
			return nil, err
		}
		row := db.RoyaleGame{Number: number, Setup: setup, EventSeq: ev.Seq, CreatedAt: w.now}
		w.out.RoyaleGameInsert(st.row.ID, row)
		w.rounds = number
		g := st.startedRoyale(&royaleGame{row: row, game: eng})
		w.keep = true
		return st.royaleView(g, w.who), nil
	})
}

// RoyaleAct records one action of game number: keeping or entering a
// fleet, sonar, the roll, a shot or volley, bonus shots, the end of a turn;
// or the host holding the fleet of a player without a phone. A player
// token acts for its own player. The host acts for anyone in play (what is
// shot is public), but keeps or enters a fleet only for its own seat and a
// player it holds: the fleet of a player with a phone is theirs alone to
// choose and to see.
func (s *Service) RoyaleAct(ctx context.Context, a Auth, k Key, number int, in RoyaleActionInput) (Reply, error) {
	return s.royaleWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.openTable(); err != nil {
			return nil, err
		}
		g, err := w.st.royaleGameAt(number)
		if err != nil {
			return nil, err
		}
		if in.Player == 0 {
			in.Player = w.who.Player
		}
		if in.Player == 0 {
			return nil, fmt.Errorf("%w: say whose action it is (player)", ErrInvalid)
		}
		if err := w.who.mayActFor(in.Player); err != nil {
			return nil, err
		}
		if err := w.seenRoyale(g, in); err != nil {
			return nil, err
		}
		act, err := in.action()
		if err != nil {
			return nil, err
		}
		byHost := w.who.byHost(in.Player)
		switch in.Kind {
		case actHold:
			if err := w.who.mustHost("hold a player's fleet"); err != nil {
				return nil, err
			}
			if err := w.st.hold(g, in.Player); err != nil {
				return nil, err
			}
			if err := w.recordRoyale(g, royale.Action{Player: in.Player, Kind: actHold}, true, royale.Outcome{}); err != nil {
				return nil, err
			}
			return w.st.royaleView(g, w.who), nil
		case royale.ActKeep, royale.ActEnter:
			if byHost && !g.holds(in.Player) {
				return nil, fmt.Errorf("%w: the host chooses only the fleet of a player it holds (hold, for a player without a phone); player %d's is theirs", ErrForbidden, in.Player)
			}
			act.Salt = newSalt()
		case royale.ActRoll:
			if g.row.Setup.Options.Die == royale.TallyDie {
				if in.Die != 0 {
					return nil, fmt.Errorf("%w: this table lets Tally roll the die: send a roll without a die value", ErrInvalid)
				}
				act.Die = rollDie()
			}
		case royale.ActAbandon:
			return nil, fmt.Errorf("%w: only the host abandons a game, with POST .../abandon", ErrInvalid)
		}
		out, err := g.game.Apply(act)
		if err != nil {
			return nil, err
		}
		if err := w.recordRoyale(g, act, byHost, out); err != nil {
			return nil, err
		}
		return w.st.royaleView(g, w.who), nil
	})
}

// AbandonRoyale is the host abandoning game number: the pot goes back to
// its players as at closing a dice table, and every fleet is revealed.
func (s *Service) AbandonRoyale(ctx context.Context, a Auth, k Key, number int) (Reply, error) {
	return s.royaleWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mustHost("abandon a game"); err != nil {
			return nil, err
		}
		if err := w.openTable(); err != nil {
			return nil, err
		}
		g, err := w.st.royaleGameAt(number)
		if err != nil {
			return nil, err
		}
		act := royale.Action{Kind: royale.ActAbandon}
		out, err := g.game.Apply(act)
		if err != nil {
			return nil, err
		}
		if err := w.recordRoyale(g, act, true, out); err != nil {
			return nil, err
		}
		return w.st.royaleView(g, w.who), nil
	})
}

// recordRoyale queues an accepted action with its audit event (what it did,
// all public), the commitments when it started play, the bounties and the
// pot's settlement the engine decided, and the fleets when it ended the
// game.
func (w *writer) recordRoyale(g *royaleGame, act royale.Action, byHost bool, out royale.Outcome) error {
	number, seq := g.row.Number, len(g.actions)+1
	ev, err := w.emit("royale.action", royaleActed{Game: number, Seq: seq, Player: act.Player, Kind: act.Kind,
		ByHost: byHost, Line: act.Line, Die: act.Die, Cells: act.Cells, Card: act.Card, Outcome: out})
	if err != nil {
		return err
	}
	stored := db.RoyaleAction{Game: number, Seq: seq, Action: act, ByHost: byHost, EventSeq: ev.Seq, CreatedAt: w.now}
	w.out.RoyaleActionAppend(w.st.row.ID, number, []db.RoyaleAction{stored})
	g.actions = append(g.actions, stored)
	w.keep = true // the game's engine, actions and the books move as they are stored
	if out.Started {
		if _, err := w.emit("royale.sealed", sealedFleets(number, g)); err != nil {
			return err
		}
	}
	if len(out.Bounties) > 0 {
		if err := w.post(bountyEntry(number, seq, out.Bounties)); err != nil {
			return err
		}
	}
	if out.Result != nil {
		e := ledger.RoundSettlement(0, out.Result.Settlement, gameMemo(number))
		e.Meta = royaleSettleMeta{RoundMeta: e.Meta.(ledger.RoundMeta), Game: number}
		if err := w.post(e); err != nil {
			return err
		}
		if _, err := w.emit("royale.revealed", revealedFleets(number, g)); err != nil {
			return err
		}
	}
	return nil
}

// The payloads of the Battleship Royale audit events.
type (
	// royaleStarted is a game set up. Rules, the version of the rules
	// it is refereed by, is absent for the games set up before games
	// named theirs (royale.Rules0).
	royaleStarted struct {
		Game       int             `json:"game"`
		Rules      royale.Rules    `json:"rules,omitempty"`
		Options    royale.Options  `json:"options"`
		Players    []game.PlayerID `json:"players"`
		First      game.PlayerID   `json:"first"`
		CarriedPot int64           `json:"carriedPot"`
	}
	// royaleActed is an accepted action as the whole table may know it:
	// never a hand, a discard or a fleet.
	royaleActed struct {
		Game   int               `json:"game"`
		Seq    int               `json:"seq"`
		Player game.PlayerID     `json:"player,omitempty"`
		Kind   royale.ActionKind `json:"kind"`
		// ByHost: the host's phone recorded it (for a player it holds,
		// or a shot it recorded for a player).
		ByHost  bool           `json:"byHost,omitempty"`
		Line    string         `json:"line,omitempty"`
		Die     int            `json:"die,omitempty"`
		Cells   []royale.Cell  `json:"cells,omitempty"`
		Card    int            `json:"card,omitempty"`
		Outcome royale.Outcome `json:"outcome"`
	}
	// fleetsSealed is every fleet's commitment, published when play starts.
	fleetsSealed struct {
		Game        int          `json:"game"`
		Commitments []Commitment `json:"commitments"`
	}
	// fleetsRevealed is every fleet and salt, published when the game ends.
	fleetsRevealed struct {
		Game   int               `json:"game"`
		Fleets []royale.Revealed `json:"fleets"`
	}
	royaleMeta struct {
		Game int `json:"game"`
		Seq  int `json:"seq,omitempty"`
	}
	royaleSettleMeta struct {
		ledger.RoundMeta
		Game int `json:"game"`
	}
)

// Commitment is one fleet's commitment: SHA-256 over a salt and the fleet's
// canonical encoding (royale.Fleet.Commitment, docs/royale-commitment.md),
// in hex.
type Commitment struct {
	Player     game.PlayerID `json:"player"`
	Commitment string        `json:"commitment"`
}

func sealedFleets(number int, g *royaleGame) fleetsSealed {
	c := g.game.Commitments()
	out := fleetsSealed{Game: number, Commitments: make([]Commitment, 0, len(c))}
	for _, p := range g.row.Setup.Players {
		h := c[p]
		out.Commitments = append(out.Commitments, Commitment{Player: p, Commitment: hex.EncodeToString(h[:])})
	}
	return out
}

func revealedFleets(number int, g *royaleGame) fleetsRevealed {
	return fleetsRevealed{Game: number, Fleets: g.game.View(0).Revealed}
}

// bountyEntry is the bounties of one action: each sunk card's owner pays
// its shooter the stake.
func bountyEntry(number, seq int, bounties []game.Payment) ledger.Entry {
	e := ledger.Entry{Kind: ledger.KindBounty, Memo: gameMemo(number), Meta: royaleMeta{Game: number, Seq: seq}}
	for _, p := range bounties {
		e.Lines = append(e.Lines, ledger.Line{Account: ledger.PlayerAccount(p.From), Amount: -p.Amount},
			ledger.Line{Account: ledger.PlayerAccount(p.To), Amount: p.Amount})
	}
	return e
}

func gameMemo(number int) string { return fmt.Sprintf("Battleship Royale game %d", number) }

// newSalt is a fleet's commitment salt, from a cryptographic source.
func newSalt() []byte {
	b := make([]byte, royale.SaltSize)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // the OS has no randomness: nothing can be safe
	}
	return b
}

// rollDie is Tally's roll of the Royale die (faces 1, 1, 2, 2, 3, 3): 1, 2
// or 3 with equal chances, from a cryptographic source.
func rollDie() int {
	n, err := rand.Int(rand.Reader, big.NewInt(3))
	if err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err))
	}
	return int(n.Int64()) + 1
}

// RoyaleGame reads game number as the caller may see it.
func (s *Service) RoyaleGame(ctx context.Context, a Auth, number int) (RoyaleView, error) {
	var row db.RoyaleGame
	var actions []db.RoyaleAction
	r, who, err := s.read(ctx, a, readPlan{queue: func(b *db.Batch) { b.RoyaleGet(a.TableID, number, &row, &actions) }})
	if err != nil {
		return RoyaleView{}, err
	}
	st, err := newState(r.row, r.Players, nil)
	if err != nil {
		return RoyaleView{}, err
	}
	if err := st.plays(db.GameRoyale); err != nil {
		return RoyaleView{}, err
	}
	if row.Number == 0 {
		return RoyaleView{}, fmt.Errorf("%w: table %d has no game %d", ErrNotFound, a.TableID, number)
	}
	g, err := replayRoyale(row, actions)
	if err != nil {
		return RoyaleView{}, err
	}
	return st.royaleView(g, who), nil
}
