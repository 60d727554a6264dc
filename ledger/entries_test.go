package ledger

import (
	"strings"
	"testing"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// TestEntryMatchesItsPostings: a stored transaction matches the entry the
// engine's settlement makes when every account, the pot included, moved by
// the same net amount; any other movement is named.
func TestEntryMatchesItsPostings(t *testing.T) {
	e := RoundSettlement(3, game.Settlement{PotBefore: 4, Payouts: []game.Amount{{Player: 1, Amount: 4}},
		PerPoint: []game.Payment{{From: 2, To: 1, Amount: 2}}}, "")
	player := func(p game.PlayerID, amount int64) db.Posting {
		return db.Posting{Kind: db.AccountPlayer, Player: p, Amount: amount}
	}
	pot := func(amount int64) db.Posting { return db.Posting{Kind: db.AccountPot, Amount: amount} }
	world := func(amount int64) db.Posting { return db.Posting{Kind: db.AccountWorld, Amount: amount} }
	cases := []struct {
		name     string
		postings []db.Posting
		want     string // "" for a match
	}{
		{"as decided", []db.Posting{pot(-4), player(1, 4), player(2, -2), player(1, 2)}, ""},
		{"netted per account", []db.Posting{pot(-4), player(1, 6), player(2, -2)}, ""},
		{"a player paid more", []db.Posting{pot(-5), player(1, 7), player(2, -2)}, "the ledger moved 7 for player:1, the engine decided 6"},
		{"the bank instead of the pot", []db.Posting{world(-4), player(1, 6), player(2, -2)}, "the ledger moved 0 for pot, the engine decided -4"},
		{"nothing", nil, "the ledger moved 0 for player:1, the engine decided 6"},
	}
	for _, tc := range cases {
		err := e.Matches(tc.postings)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
