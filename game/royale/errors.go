package royale

import "errors"

// The ways a game setup or an action can be refused, besides a cell (ErrCell),
// a sonar line (ErrLine), a card (ErrCard) or a fleet (ErrFleet) that is no
// such thing. Every refusal
// wraps exactly one of them with %w and says in plain words what was wrong,
// so callers test with errors.Is and map each to a response in one place.
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
	// ErrShot: a cell already shot, a cell named twice in one volley, or
	// the wrong number of cells.
	ErrShot = errors.New("not a shot that can be fired")
	// ErrTooManyShots: more shots than the die and unused bonus shots allow.
	ErrTooManyShots = errors.New("no shots left")
	// ErrDie: a die value other than 1-3, a second roll in a turn, or a
	// shot before the roll.
	ErrDie = errors.New("not a roll of the die")
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
