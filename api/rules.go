package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/game"
)

// presetView is a preset with the ruleset it gives, so a phone can show the
// defaults before a table is made.
type presetView struct {
	game.PresetInfo
	Ruleset game.Ruleset `json:"ruleset"`
}

// listPresets serves GET /v1/presets.
func (s *server) listPresets(c echo.Context) error {
	infos := game.Presets()
	out := make([]presetView, 0, len(infos))
	for _, p := range infos {
		rs, err := game.NewRuleset(p.Name, game.Options{})
		if err != nil {
			return err
		}
		out = append(out, presetView{PresetInfo: p, Ruleset: rs})
	}
	return c.JSON(http.StatusOK, out)
}

// checkTurnRequest is the body of POST /v1/check-turn.
type checkTurnRequest struct {
	Preset  string       `json:"preset"`
	Options game.Options `json:"options"`
	Rolls   []game.Roll  `json:"rolls"`
	Stand   bool         `json:"stand"`
}

// turnOutcome is a turn's outcome with what the player may do next, for a
// turn that is not over yet.
type turnOutcome struct {
	game.Outcome
	Next *game.Next `json:"next,omitempty"`
}

// checkTurn serves POST /v1/check-turn: a stateless judgement of a whole or
// partial turn. A partial turn (the player still has throws to make) is
// accepted and its next step described, so a phone can check as it goes.
func (s *server) checkTurn(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var req checkTurnRequest
	if err := decodeStrict(body, &req); err != nil {
		return err
	}
	rs, err := game.NewRuleset(req.Preset, req.Options)
	if err != nil {
		return err
	}
	if len(req.Rolls) == 0 {
		return fail(kindInvalid, "rolls must list at least one roll")
	}
	turn := game.NewTurn(rs)
	for _, r := range req.Rolls {
		if err := turn.Roll(r); err != nil {
			return err
		}
	}
	if req.Stand {
		if err := turn.Stand(); err != nil {
			return err
		}
	}
	out := turnOutcome{Outcome: turn.Outcome()}
	if next := turn.Next(); !next.Over {
		out.Next = &next
	}
	return c.JSON(http.StatusOK, out)
}
