// Package royale is the rulebook of Battleship Royale as Tally referees it
// (../shared/ROYALE.md): the shared 10x10 grid, ship cards, fleets dealt or
// entered, and each fleet's commitment. Like package game it is pure: no
// I/O, and deterministic given the random source a deal draws from.
//
// This package is being built for issue 12 in steps: the board, the cards,
// fleets and their commitments, and the deal come first; turns, shots,
// sonar, bonuses and the settlement follow.
package royale
