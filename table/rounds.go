package table

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// StartRoundInput is what starting a round may need: the declared score of a
// progressive pot, and the roll-off throws before a roll-off table's first
// round.
type StartRoundInput struct {
	Declared *int                `json:"declared,omitempty"`
	RollOff  []RollOffThrowInput `json:"rollOff,omitempty"`
}

// RollOffThrowInput is one roll-off throw, all five dice.
type RollOffThrowInput struct {
	Player game.PlayerID `json:"player"`
	Dice   []int         `json:"dice"`
}

// StartRound opens the table's next round and posts its antes.
func (s *Service) StartRound(ctx context.Context, a Auth, k Key, in StartRoundInput) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mayWrite(); err != nil {
			return nil, err
		}
		if err := w.openTable(); err != nil {
			return nil, err
		}
		return w.startRound(in)
	})
}

func (w *writer) startRound(in StartRoundInput) (RoundView, error) {
	st := w.st
	if err := st.plays(db.GameDice); err != nil {
		return RoundView{}, err
	}
	d := st.dice()
	if cur := d.current(); cur != nil {
		return RoundView{}, fmt.Errorf("%w: round %d is still being played", ErrRoundPlaying, cur.row.Number)
	}
	seats := st.seats()
	if len(seats) < 2 {
		return RoundView{}, fmt.Errorf("%w: a round needs at least two players at the table, not %d", ErrInvalid, len(seats))
	}
	row := db.Round{Number: w.rounds + 1, Status: db.RoundOpen}
	if d.game == nil && st.rules().Start == game.StartRollOff {
		var err error
		if row.RollOff, err = rollOff(seats, in.RollOff); err != nil {
			return RoundView{}, err
		}
	} else if len(in.RollOff) > 0 {
		return RoundView{}, fmt.Errorf("%w: a roll-off is only thrown before the first round of a roll-off table", ErrInvalid)
	}
	row.Game.Seats = seats
	if err := d.positionGame(row); err != nil {
		return RoundView{}, err
	}
	var err error
	if row.Game, err = d.game.Snapshot(); err != nil {
		return RoundView{}, err
	}
	setup, err := d.game.NextRound()
	if err != nil {
		return RoundView{}, err
	}
	switch {
	case setup.Declarer != 0 && in.Declared == nil:
		return RoundView{}, fmt.Errorf("%w: this progressive round needs the declared score of its declarer (player %d)", ErrInvalid, setup.Declarer)
	case setup.Declarer == 0 && in.Declared != nil:
		return RoundView{}, fmt.Errorf("%w: only a progressive pot's round has a declared score", ErrInvalid)
	case in.Declared != nil:
		setup.Declared = *in.Declared
	}
	round, err := game.NewRound(st.rules(), setup)
	if err != nil {
		return RoundView{}, err
	}
	row.Setup = setup
	w.out.RoundInsert(st.row.ID, row)
	d.last, w.keep = &playedRound{row: row, round: round}, true
	w.rounds = row.Number
	if antes := round.Antes(); len(antes) > 0 {
		if err := w.post(ledger.Antes(row.Number, antes)); err != nil {
			return RoundView{}, err
		}
	}
	if _, err := w.emit("round.started", roundStarted{Round: row.Number, Setup: setup, Game: row.Game, RollOff: row.RollOff}); err != nil {
		return RoundView{}, err
	}
	return d.last.liveView(w.who), nil
}

// roundStarted is the payload of round.started: the round's setup and the
// game's state before it.
type roundStarted struct {
	Game    game.GameState      `json:"game"`
	RollOff []game.RollOffThrow `json:"rollOff,omitempty"`
	Round   int                 `json:"round"`
	Setup   game.RoundSetup     `json:"setup"`
}

// rollOff judges the roll-off throws.
func rollOff(seats []game.PlayerID, in []RollOffThrowInput) ([]game.RollOffThrow, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("%w: this table starts with a roll-off: send every player's five dice as rollOff (players tied for lowest throw again)", ErrInvalid)
	}
	throws := make([]game.RollOffThrow, 0, len(in))
	for _, t := range in {
		throws = append(throws, game.RollOffThrow{Player: t.Player, Dice: t.Dice})
	}
	_, err := game.ResolveRollOff(seats, throws)
	return throws, err
}

// Round reads one round as the caller may see it: live, with other players'
// sealed rolls hidden, or settled, with everything revealed.
func (s *Service) Round(ctx context.Context, a Auth, number int) (RoundView, error) {
	var row db.Round
	var actions []db.Action
	r, who, err := s.read(ctx, a, readPlan{queue: func(b *db.Batch) {
		b.RoundGet(a.TableID, number, &row)
		b.ActionListByRound(a.TableID, number, &actions)
	}})
	if err != nil {
		return RoundView{}, err
	}
	if row.Number == 0 {
		return RoundView{}, fmt.Errorf("%w: table %d has no round %d", ErrNotFound, a.TableID, number)
	}
	st := &diceState{rules: r.row.Rules}
	if err := st.resume(row, actions); err != nil {
		return RoundView{}, err
	}
	return st.last.view(who, st.game)
}

// RoundPage is one page of a table's rounds, oldest first; Next is the
// cursor of the next page, empty on the last.
type RoundPage struct {
	Rounds []RoundView `json:"rounds"`
	Next   string      `json:"next,omitempty"`
}

// Rounds reads at most limit of the table's rounds after round number
// after, oldest first, each replayed. The cursor is the last round number
// seen, so a page never shifts when rounds are played meanwhile.
func (s *Service) Rounds(ctx context.Context, a Auth, after, limit int) (RoundPage, error) {
	var rounds []db.Round
	var actions []db.Action
	r, who, err := s.read(ctx, a, readPlan{history: func(b *db.Batch) {
		// One more than a page says whether there is a next page.
		b.RoundPage(a.TableID, after, limit+1, &rounds, &actions)
	}})
	if err != nil {
		return RoundPage{}, err
	}
	page := RoundPage{Rounds: make([]RoundView, 0, min(len(rounds), limit))}
	byRound := map[int][]db.Action{}
	for _, a := range actions {
		byRound[a.Round] = append(byRound[a.Round], a)
	}
	for i, row := range rounds {
		if i == limit {
			page.Next = strconv.Itoa(rounds[i-1].Number)
			break
		}
		// Each round resumes from its own stored state: the history shows
		// what was played; the audit is what checks the rounds chain up.
		one := &diceState{rules: r.row.Rules}
		if err := one.resume(row, byRound[row.Number]); err != nil {
			return RoundPage{}, err
		}
		v, err := one.last.view(who, one.game)
		if err != nil {
			return RoundPage{}, err
		}
		page.Rounds = append(page.Rounds, v)
	}
	return page, nil
}

// view is a round as who may see it; g is the game after it, which tells
// whether a settled round won a game of rounds.
func (pr *playedRound) view(who Principal, g *game.Game) (RoundView, error) {
	switch pr.row.Status {
	case db.RoundOpen:
		return pr.liveView(who), nil
	case db.RoundVoid:
		return reversedView(pr), nil
	}
	res, _ := pr.round.Result() // resume checked that a settled round is over
	v := roundView(pr.row.Number, len(pr.actions), statusSettled, pr.round.State(), &res)
	v.Game = wonGame(g, pr)
	return v, nil
}
