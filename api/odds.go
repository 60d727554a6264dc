package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/odds"
)

// oddsRequest is the body of POST /v1/odds: a turn's state and its table's
// rules, given either as a preset with options or as the resolved ruleset a
// table reports (GET /v1/tables/{id} .ruleset).
type oddsRequest struct {
	Preset    string        `json:"preset"`
	Options   game.Options  `json:"options"`
	Ruleset   *game.Ruleset `json:"ruleset"`
	Banked    []int         `json:"banked"`
	Cargo     []int         `json:"cargo"`
	RollsLeft int           `json:"rollsLeft"`
	Point     *int          `json:"point"`
	Later     int           `json:"later"`
	PathHint  string        `json:"pathHint"`
}

// optionsOf are the options that rebuild a resolved ruleset from its preset,
// so a ruleset sent by a client is checked like any table's.
func optionsOf(rs game.Ruleset) game.Options {
	o := game.Options{Low: &rs.Low, Automatic: &rs.Automatic, ClosedRolls: &rs.ClosedRolls, Progressive: &rs.Progressive,
		Payoff: &rs.Payoff, Ante: &rs.Ante, Start: &rs.Start, ReanteOnTie: &rs.ReanteOnTie}
	if rs.Payoff == game.PayoffPerPoint {
		o.Stake = &rs.Stake
	}
	if rs.Goal.Kind != "" && rs.Goal.Kind != game.GoalRound {
		o.Goal = &rs.Goal
	}
	return o
}

// advise serves POST /v1/odds: the exact chances of each choice the player
// has now (stand, re-roll which cargo, roll on), computed by the advisor.
func (s *server) advise(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var in oddsRequest
	if err := decodeStrict(body, &in); err != nil {
		return err
	}
	preset, opts := in.Preset, in.Options
	if in.Ruleset != nil {
		if in.Preset != "" {
			return fail(kindInvalid, "give either ruleset or preset with options, not both")
		}
		preset, opts = in.Ruleset.Preset, optionsOf(*in.Ruleset)
		if preset == "" {
			return fail(kindInvalidRules, "ruleset.preset is required")
		}
	}
	rs, err := game.NewRuleset(preset, opts)
	if err != nil {
		return err
	}
	advice, err := odds.Advise(odds.Query{Ruleset: rs, Banked: in.Banked, Cargo: in.Cargo, RollsLeft: in.RollsLeft,
		Point: in.Point, Later: in.Later, PathHint: in.PathHint})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, advice)
}
