package api

import "testing"

// This file is a round as the API shows it, decoded in full so that the
// scenario tests can check every turn, score and unit of money.

// rollOut is one throw in a round view.
type rollOut struct {
	Roll struct {
		Dice    []int  `json:"dice"`
		Rethrow []int  `json:"rethrow"`
		Path    string `json:"path"`
	} `json:"roll"`
	Banked      []int `json:"banked"`
	CargoReroll bool  `json:"cargoReroll"`
	Closed      bool  `json:"closed"`
	Sealed      bool  `json:"sealed"`
	Cargo       []int `json:"cargo"`
}

// outcomeOut is a turn in a round view.
type outcomeOut struct {
	Rolls     []rollOut `json:"rolls"`
	Qualified bool      `json:"qualified"`
	Path      []int     `json:"path"`
	Banked    []int     `json:"banked"`
	Cargo     []int     `json:"cargo"`
	Score     int       `json:"score"`
	Automatic bool      `json:"automatic"`
	Closed    bool      `json:"closed"`
	Sealed    bool      `json:"sealed"`
	Over      bool      `json:"over"`
	Stood     bool      `json:"stood"`
}

// turnOut is one player's part of a round view.
type turnOut struct {
	Player       int64      `json:"player"`
	Status       string     `json:"status"`
	Outcome      outcomeOut `json:"outcome"`
	Revealed     bool       `json:"revealed"`
	AutomaticWon bool       `json:"automaticWon"`
}

// amountOut and paymentOut are money in a settlement.
type amountOut struct {
	Player int64 `json:"player"`
	Amount int64 `json:"amount"`
}

type paymentOut struct {
	From   int64 `json:"from"`
	To     int64 `json:"to"`
	Amount int64 `json:"amount"`
}

// settlementOut is a round's money as the engine decided it.
type settlementOut struct {
	Antes     []amountOut  `json:"antes"`
	PotBefore int64        `json:"potBefore"`
	Payouts   []amountOut  `json:"payouts"`
	CarryOver int64        `json:"carryOver"`
	Remainder int64        `json:"remainder"`
	PerPoint  []paymentOut `json:"perPoint"`
}

// scoreOut is one player's score in a result.
type scoreOut struct {
	Player    int64 `json:"player"`
	Qualified bool  `json:"qualified"`
	Score     int   `json:"score"`
	Automatic bool  `json:"automatic"`
	Forfeited bool  `json:"forfeited"`
}

// totalOut is a player's points in a game of rounds.
type totalOut struct {
	Player int64 `json:"player"`
	Total  int64 `json:"total"`
}

// fullRound is a round view with everything the scenarios check.
type fullRound struct {
	Number   int     `json:"number"`
	Status   string  `json:"status"`
	Actions  int     `json:"actions"`
	Players  []int64 `json:"players"`
	Playoff  bool    `json:"playoff"`
	Declared int     `json:"declared"`
	Declarer int64   `json:"declarer"`
	Turn     int64   `json:"turn"`
	Next     *struct {
		Over       bool  `json:"over"`
		Throw      int   `json:"throw"`
		MayStand   bool  `json:"mayStand"`
		MayReroll  bool  `json:"mayReroll"`
		Rerollable []int `json:"rerollable"`
		RerollAll  bool  `json:"rerollAll"`
		RollsLeft  int   `json:"rollsLeft"`
		Roll       int   `json:"roll"`
	} `json:"next"`
	Point       *int      `json:"point"`
	Hammer      int64     `json:"hammer"`
	Pot         int64     `json:"pot"`
	Claimable   int64     `json:"claimableAutomatic"`
	MayLiftCups bool      `json:"mayLiftCups"`
	Turns       []turnOut `json:"turns"`
	Result      *struct {
		Kind       string        `json:"kind"`
		Winners    []int64       `json:"winners"`
		Playoff    []int64       `json:"playoff"`
		Automatic  bool          `json:"automatic"`
		Scores     []scoreOut    `json:"scores"`
		Settlement settlementOut `json:"settlement"`
	} `json:"result"`
	Game *struct {
		Winner     int64         `json:"winner"`
		Totals     []totalOut    `json:"totals"`
		Settlement settlementOut `json:"settlement"`
	} `json:"game"`
}

// of is a player's turn in the round.
func (r fullRound) of(t *testing.T, player int64) turnOut {
	t.Helper()
	for _, tv := range r.Turns {
		if tv.Player == player {
			return tv
		}
	}
	t.Fatalf("round %d has no turn of player %d", r.Number, player)
	return turnOut{}
}

// score is a player's score in the round's result.
func (r fullRound) score(t *testing.T, player int64) scoreOut {
	t.Helper()
	if r.Result == nil {
		t.Fatalf("round %d has no result", r.Number)
	}
	for _, sc := range r.Result.Scores {
		if sc.Player == player {
			return sc
		}
	}
	t.Fatalf("round %d has no score of player %d", r.Number, player)
	return scoreOut{}
}
