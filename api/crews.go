package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// createCrew serves POST /v1/crews: a crew with its first members.
func (s *server) createCrew(c echo.Context) error {
	var in table.NewCrew
	k, err := decodeWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.CreateCrew(c.Request().Context(), k, in)
	return reply(c, r, err)
}

// getCrew serves GET /v1/crews/:crewId.
func (s *server) getCrew(c echo.Context) error {
	v, err := s.tables.Crew(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// createNight serves POST /v1/crews/:crewId/nights: a table for the crew,
// seating members.
func (s *server) createNight(c echo.Context) error {
	var in table.NewNight
	k, err := decodeWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.CreateNight(c.Request().Context(), auth(c), k, in)
	return reply(c, r, err)
}

// rollNight serves POST /v1/crews/:crewId/nights/:number/roll.
func (s *server) rollNight(c echo.Context) error {
	n, err := pathNumber(c, "night")
	if err != nil {
		return err
	}
	k, err := optionalWrite(c, &struct{}{}, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.RollNight(c.Request().Context(), auth(c), k, int64(n))
	return reply(c, r, err)
}

// crewStats serves GET /v1/crews/:crewId/stats.
func (s *server) crewStats(c echo.Context) error {
	v, err := s.tables.CrewStats(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}
