package game

import (
	"fmt"
	"strconv"
)

// PlayerID names a player: at a table it is the player's id there. Zero is
// no player (whose turn it is once a round is over, the public viewer).
// It encodes in JSON as a number, as the API shows player ids.
type PlayerID int64

// String is the id in decimal, as errors name players.
func (p PlayerID) String() string { return strconv.FormatInt(int64(p), 10) }

// UnmarshalJSON reads a number or, as rounds stored before ids were typed
// hold them, a string of decimal digits.
func (p *PlayerID) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
		if s == "" {
			*p = 0
			return nil
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("player id %s: not a whole number", b)
	}
	*p = PlayerID(v)
	return nil
}
