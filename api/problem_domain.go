package api

import (
	"errors"

	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/odds"
	"github.com/tally-dice/tally/game/royale"
	"github.com/tally-dice/tally/table"
)

// ruleCodes are the stable codes of the rules a roll can break, sent as the
// problem's `rule` so a phone can react without parsing words.
var ruleCodes = []struct {
	err  error
	code string
}{
	{game.ErrDiceCount, "dice-count"},
	{game.ErrFace, "face"},
	{game.ErrTooManyRolls, "too-many-rolls"},
	{game.ErrTurnOver, "turn-over"},
	{game.ErrRerollNotQualified, "reroll-not-qualified"},
	{game.ErrRerollPolicy, "reroll-policy"},
	{game.ErrRethrowNotCargo, "rethrow-not-cargo"},
	{game.ErrCargoSealed, "cargo-sealed"},
	{game.ErrAmbiguousPath, "ambiguous-path"},
	{game.ErrBadPath, "bad-path"},
	{game.ErrStandNotAllowed, "stand-not-allowed"},
	{game.ErrEmptyTurn, "empty-turn"},
	{game.ErrTurnIncomplete, "turn-incomplete"},
}

// royaleRules are the stable codes of the Battleship Royale rules a move
// can break (docs/royale.md §5), sent as the problem's `rule`: one code per
// fault, as openapi.yaml's Problem lists them. A misspelt cell or sonar
// line is no move at all but a request that does not read (domainKinds).
var royaleRules = []struct {
	err  error
	code string
}{
	{royale.ErrCard, "card"},
	{royale.ErrFleet, "fleet"},
	{royale.ErrDiscard, "discard"},
	{royale.ErrPhase, "phase"},
	{royale.ErrShot, "already-shot"},
	{royale.ErrTooManyShots, "too-many-shots"},
	{royale.ErrTooFewShots, "too-few-shots"},
	{royale.ErrDie, "die"},
	{royale.ErrSecondRoll, "second-roll"},
	{royale.ErrRollFirst, "roll-first"},
	{royale.ErrSonar, "sonar"},
	{royale.ErrNotDone, "not-done"},
	{royale.ErrBadAction, "action"},
	{royale.ErrUnknownPlayer, "player"},
}

// ruleRecordedSince is the rule of every /problems/recorded-since: the
// write said which state it was entered against (seen), and something was
// recorded since. A phone drops the write and shows the detail.
const ruleRecordedSince = "recorded-since"

// domainProblem maps the errors of the table service and the game to problems.
// It is called by problemFor and nowhere else.
func domainProblem(err error) (Problem, bool) {
	if errors.Is(err, table.ErrHistoryBroken) {
		// Checked first: a stored throw that no longer replays is the
		// table's problem, not a roll the caller sent.
		return kindHistory.problem(err.Error()), true
	}
	var re *game.RollError
	if errors.As(err, &re) {
		p := kindInvalidRoll.problem(re.Error())
		p.Roll, p.Die = re.Roll, re.Die
		for _, rc := range ruleCodes {
			if errors.Is(re.Rule, rc.err) {
				p.Rule = rc.code
				break
			}
		}
		return p, true
	}
	if errors.Is(err, table.ErrRecordedSince) {
		// The detail is the whole message, for the phone to show as it is.
		p := kindRecorded.problem(err.Error())
		p.Rule = ruleRecordedSince
		return p, true
	}
	for _, rr := range royaleRules {
		if errors.Is(err, rr.err) {
			p := kindInvalidMove.problem(err.Error())
			p.Rule = rr.code
			return p, true
		}
	}
	for _, m := range domainKinds {
		for _, target := range m.errs {
			if errors.Is(err, target) {
				detail := m.detail
				if detail == "" {
					detail = err.Error()
				}
				p := m.kind.problem(detail)
				p.logged = m.log
				return p, true
			}
		}
	}
	return Problem{}, false
}

// domainKinds maps the domain's sentinel errors to problem kinds, first
// match wins. A row with a detail says that instead of the error, whose
// words are for the log (a database outage names hosts and users); a row
// with log set has the error logged, as a 5xx's is.
var domainKinds = []struct {
	errs   []error
	kind   *problemKind
	detail string
	log    bool
}{
	{[]error{table.ErrUnavailable}, kindUnavailable, "the database is not answering or cannot take the request now; nothing was changed, so the same request can be sent again shortly", false},
	{[]error{table.ErrDiskFull}, kindUnavailable, "", false},
	{[]error{table.ErrSeatFreed}, kindSeatFreed, "", false},
	{[]error{table.ErrHostMoved}, kindHostMoved, "", false},
	{[]error{table.ErrUnknownToken}, kindUnauthorized, "", false},
	// A cell or a sonar line not written as openapi.yaml's patterns say is
	// a request that does not read, like a field of the wrong type: the
	// error names the field and the spelling.
	{[]error{royale.ErrCell, royale.ErrLine}, kindMalformed, "", false},
	{[]error{table.ErrForbidden}, kindForbidden, "", false},
	{[]error{table.ErrNotFound, table.ErrUnknownPlayer}, kindNotFound, "", false},
	{[]error{game.ErrOutOfTurn, royale.ErrOutOfTurn}, kindOutOfTurn, "", false},
	{[]error{table.ErrRoundPlaying}, kindRoundBusy, "", false},
	{[]error{table.ErrNoRound, game.ErrRoundOver, game.ErrNoRoundPending}, kindNoRound, "", false},
	{[]error{table.ErrTableClosed}, kindTableClosed, "", false},
	{[]error{table.ErrKeyMismatch}, kindKeyMismatch, "", false},
	{[]error{table.ErrInsufficientFunds}, kindInsufficient, "", false},
	{[]error{table.ErrPotNotEmpty}, kindPotNotEmpty, "", false},
	{[]error{table.ErrNotOwed}, kindNotOwed, "", false},
	{[]error{table.ErrClaimResolved}, kindClaimAnswered, "", false},
	{[]error{table.ErrNameTaken, table.ErrGameUnderway, game.ErrGameOver, table.ErrTurnRecorded,
		royale.ErrGameOver, table.ErrWrongGame, table.ErrNotCorrectable, table.ErrRecoverySpent}, kindConflict, "", false},
	{[]error{table.ErrChanged}, kindConflict, "the table changed while the request was being written; nothing was written, so read the table and send it again", true},
	{[]error{game.ErrUnknownPreset, game.ErrBadOption, royale.ErrOptions}, kindInvalidRules, "", false},
	{[]error{table.ErrInvalid, table.ErrInvalidAmount, game.ErrBadSetup, royale.ErrSetup, game.ErrBadAction, game.ErrNoAutomatic,
		game.ErrLiftNotAllowed, game.ErrUnknownPlayer, game.ErrRollOff}, kindInvalid, "", false},
	{[]error{odds.ErrRuleset, odds.ErrRollsLeft, odds.ErrLater, odds.ErrPoint, odds.ErrBanked,
		odds.ErrCargoNotQualified, odds.ErrCargoCount, odds.ErrFace, odds.ErrPathHint, odds.ErrImpossibleState}, kindInvalid, "", false},
}
