package game

// This file decides who wins a round and settles the money as data
// (docs/rules.md §2 ties and no-one-qualifies, §5 progressive pots, §6 payoffs).
// The ledger records the Settlement; it decides nothing itself.

// Amount is a sum of money for one player, in the table's smallest unit.
type Amount struct {
	Player PlayerID `json:"player"`
	Amount int64    `json:"amount"`
}

// Payment is money one player pays another directly (per-point payoffs).
type Payment struct {
	From   PlayerID `json:"from"`
	To     PlayerID `json:"to"`
	Amount int64    `json:"amount"`
}

// Settlement is every money movement of a round. The invariant
// sum(Payouts) + CarryOver == PotBefore always holds.
type Settlement struct {
	// Antes are what each player put into the pot this round.
	Antes []Amount `json:"antes"`
	// PotBefore is the carried pot plus this round's antes.
	PotBefore int64 `json:"potBefore"`
	// Payouts are what players take out of the pot.
	Payouts []Amount `json:"payouts"`
	// CarryOver is what stays in the pot for the next round, Remainder
	// included.
	CarryOver int64 `json:"carryOver"`
	// Remainder is the part of CarryOver that is the indivisible rest of a
	// split; the ledger records it as such.
	Remainder int64 `json:"remainder"`
	// PerPoint are the direct payments of a per-point payoff.
	PerPoint []Payment `json:"perPoint"`
}

// ResultKind says how a round ended.
type ResultKind string

// The ways a round ends.
const (
	ResultWin       ResultKind = "win"        // one winner takes the pot
	ResultSplit     ResultKind = "split"      // tied winners share the pot
	ResultTie       ResultKind = "tie"        // one tie, all tie: the pot carries
	ResultPlayoff   ResultKind = "playoff"    // the tied players play one more round
	ResultNoQualify ResultKind = "no-qualify" // nobody put to sea: all tie, the pot carries
	ResultRefund    ResultKind = "refund"     // nobody put to sea: the pot is split among all
	ResultNoWinner  ResultKind = "no-winner"  // progressive: nobody hit the declared score
	ResultScored    ResultKind = "scored"     // a round of a game of rounds: scores only
)

// PlayerScore is one player's result in a round.
type PlayerScore struct {
	Player    PlayerID `json:"player"`
	Qualified bool     `json:"qualified"`
	Score     int      `json:"score"` // 0 without a score
	Automatic bool     `json:"automatic,omitempty"`
	Forfeited bool     `json:"forfeited,omitempty"`
}

// Result is a finished round: the scores, who won and the money.
type Result struct {
	Kind    ResultKind    `json:"kind"`
	Scores  []PlayerScore `json:"scores"`
	Winners []PlayerID    `json:"winners"`
	// Playoff lists the players who must play a one-round playoff.
	Playoff []PlayerID `json:"playoff,omitempty"`
	// Automatic says a claimed automatic won the round.
	Automatic  bool       `json:"automatic,omitempty"`
	Settlement Settlement `json:"settlement"`
}

// Carried reports whether the whole pot stays for a replay because of a
// tie or nobody qualifying, which is when re-ante-on-tie applies.
func (res Result) Carried() bool {
	return res.Kind == ResultTie || res.Kind == ResultNoQualify || res.Kind == ResultPlayoff
}

// Result is the final result once the round is over. Its lists are never
// nil: a result says whom it paid and who won, even nobody.
func (r *Round) Result() (Result, bool) {
	if !r.over {
		return Result{}, false
	}
	res := r.result()
	if res.Winners == nil {
		res.Winners = []PlayerID{}
	}
	res.Settlement.fill()
	return res, true
}

// Antes are what each player puts into the pot as the round starts.
func (r *Round) Antes() []Amount {
	if !r.setup.Ante || r.rs.Ante <= 0 {
		return nil
	}
	out := make([]Amount, len(r.seats))
	for i, s := range r.seats {
		out[i] = Amount{s.player, r.rs.Ante}
	}
	return out
}

// fill makes a settlement's empty lists empty rather than nil.
func (st *Settlement) fill() {
	if st.Antes == nil {
		st.Antes = []Amount{}
	}
	if st.Payouts == nil {
		st.Payouts = []Amount{}
	}
	if st.PerPoint == nil {
		st.PerPoint = []Payment{}
	}
}

// result decides the round; the round is over.
func (r *Round) result() Result {
	res := Result{Scores: r.scores(), Automatic: r.autoWin >= 0}
	st := &res.Settlement
	st.PotBefore = r.pot()
	st.Antes = r.Antes()
	if r.rs.Goal.Kind != GoalRound {
		// In a game of rounds the rounds only score; the game pays the pot.
		res.Kind = ResultScored
		st.CarryOver = st.PotBefore
		return res
	}
	var winners []int
	res.Kind, winners = r.decide(res.Scores)
	for _, w := range winners {
		res.Winners = append(res.Winners, r.seats[w].player)
	}
	switch res.Kind {
	case ResultWin, ResultSplit:
		st.Payouts, st.Remainder = split(st.PotBefore, res.Winners)
		st.CarryOver = st.Remainder
		if r.rs.Payoff == PayoffPerPoint {
			st.PerPoint = perPoint(r.rs, res.Scores, winners)
		}
	case ResultRefund:
		st.Payouts, st.Remainder = split(st.PotBefore, r.setup.Players)
		st.CarryOver = st.Remainder
	case ResultPlayoff:
		res.Playoff, res.Winners = res.Winners, nil
		st.CarryOver = st.PotBefore
	default:
		res.Winners = nil
		st.CarryOver = st.PotBefore
	}
	return res
}

// scores lists each player's score in play order.
func (r *Round) scores() []PlayerScore {
	out := make([]PlayerScore, len(r.seats))
	for i := range r.seats {
		t := &r.seats[i].turn
		out[i] = PlayerScore{Player: r.seats[i].player, Qualified: t.qualified,
			Automatic: i == r.autoWin, Forfeited: r.seats[i].forfeited}
		if t.qualified {
			out[i].Score = sum(t.ints(t.cargo))
		}
	}
	return out
}

// decide names the round's winners (seat indexes) and how it ended.
func (r *Round) decide(scores []PlayerScore) (ResultKind, []int) {
	if r.autoWin >= 0 {
		return ResultWin, []int{r.autoWin}
	}
	var best []int
	for i, s := range scores {
		switch {
		case !s.Qualified:
		case r.rs.Progressive && s.Score != r.setup.Declared:
		case len(best) == 0 || r.better(s.Score, scores[best[0]].Score):
			best = append(best[:0], i)
		case s.Score == scores[best[0]].Score:
			best = append(best, i)
		}
	}
	switch {
	case len(best) == 1:
		return ResultWin, best
	case len(best) > 1:
		return r.tie(best)
	case r.rs.Progressive:
		return ResultNoWinner, nil
	}
	switch r.rs.NoQualify {
	case NoQualifyScoreZero:
		// Everyone scores 0, so everyone is tied for the best.
		all := make([]int, len(scores))
		for i := range all {
			all[i] = i
		}
		return r.tie(all)
	case NoQualifyRefund:
		return ResultRefund, nil
	}
	return ResultNoQualify, nil
}

// tie applies the table's tie rule to players sharing the best score.
func (r *Round) tie(tied []int) (ResultKind, []int) {
	switch r.rs.Ties {
	case TieSplit:
		return ResultSplit, tied
	case TiePlayoff:
		return ResultPlayoff, tied
	}
	return ResultTie, tied
}

// split divides pot equally among players in whole units. The indivisible
// remainder is returned, not paid: it stays in the pot (docs/rules.md §2).
func split(pot int64, players []PlayerID) ([]Amount, int64) {
	k := int64(len(players))
	share := pot / k
	if share == 0 {
		return nil, pot
	}
	out := make([]Amount, len(players))
	for i, p := range players {
		out[i] = Amount{p, share}
	}
	return out, pot - share*k
}
