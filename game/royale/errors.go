package royale

import "errors"

// The ways a game setup or an action can be refused, besides a cell
// (ErrCell), a sonar line (ErrLine), a card (ErrCard) or a fleet (ErrFleet)
// that is no such thing. Every refusal wraps exactly one of them with %w,
// one per fault, and says in plain words what was wrong, so callers test
// with errors.Is and map each to a response in one place.
var (
	// ErrSetup: the game cannot start as set up (players, first player,
	// hands, carried pot).
	ErrSetup = errors.New("invalid game setup")
	// ErrPhase: the action belongs to another phase of the game, such as
	// shooting before every fleet is in or keeping after play started.
	ErrPhase = errors.New("not now in this game")
	// ErrOutOfTurn: somebody else's turn.
	ErrOutOfTurn = errors.New("not this player's turn")
	// ErrUnknownPlayer: the player does not play in this game.
	ErrUnknownPlayer = errors.New("player is not in this game")
	// ErrShot: a cell shot already, by anyone, or named twice in one volley.
	ErrShot = errors.New("a cell shot already")
	// ErrTooManyShots: more shots than the die and unused bonus shots
	// allow: more cells than the shot or volley holds, the die's shots all
	// fired, or no bonus shot left.
	ErrTooManyShots = errors.New("more shots than allowed")
	// ErrTooFewShots: fewer cells than the shot or volley holds: an
	// advanced volley is all the die's shots (or all a bonus's) at once.
	ErrTooFewShots = errors.New("fewer shots than the volley holds")
	// ErrDie: a die value missing, or other than 1-3.
	ErrDie = errors.New("not a value of the die")
	// ErrSecondRoll: a second roll of the die in one turn.
	ErrSecondRoll = errors.New("the die is rolled once a turn")
	// ErrRollFirst: a shot or a bonus before the turn's roll.
	ErrRollFirst = errors.New("roll the die first")
	// ErrSonar: sonar not allowed (standard game, none left, used this turn,
	// not at the start of the turn).
	ErrSonar = errors.New("sonar not allowed")
	// ErrDiscard: the wrong number of discards, one repeated or out of the
	// hand, or the submarine.
	ErrDiscard = errors.New("not a discard of the dealt hand")
	// ErrGameOver: any action after the game ended.
	ErrGameOver = errors.New("the game is over")
	// ErrNotDone: the turn's player says done with the die's shots not fired.
	ErrNotDone = errors.New("the turn is not done")
	// ErrBadAction: an unknown kind of action, or fields that do not belong
	// to its kind.
	ErrBadAction = errors.New("invalid action")
)
