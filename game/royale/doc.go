// Package royale is the rulebook of Battleship Royale as Tally referees it
// (docs/royale.md): the shared 10x10 grid, ship cards, fleets dealt or
// entered and each fleet's commitment, turns of shots, sonar and bonuses,
// sinking and elimination, the end and its money, and what each viewer may
// see. Like package game it is pure: no I/O, no clock, and no randomness
// but the random source a deal draws from.
//
// A game is replayed from its Setup plus the ordered Actions applied to it.
// Game.Apply either applies an action whole or refuses it and changes
// nothing; every refusal wraps one sentinel error (ErrShot, ErrOutOfTurn,
// ...) with %w and says in plain words what was wrong. Game.Replay applies
// an action taken before, under the rules the game was set up with (below).
//
// # House rules
//
// docs/royale.md decides where the seed rules are silent; these are its
// decisions, and the engine's own where docs/royale.md is silent too. The option
// that changes a rule is named where one exists.
//
// The board:
//
//   - A cell has one spelling (CellSpelling): a row letter A-J in either
//     case, then a column number 1-10 without a leading zero, and nothing
//     before, between or after ("B7", "b7", "J10"; not " B7", "B7 ", "B07"
//     or "K1"). A sonar line is a row letter or a column number, likewise
//     (LineSpelling: "C", "c", "7"; not " C" or "07"). Tally writes both
//     upper case, in views, stored actions and events. Any other text is no
//     cell (ErrCell) or no line (ErrLine), never read loosely.
//
// Cards and fleets:
//
//   - A dealt card's bonus number is the ship's length minus one (docs/royale.md
//     §1, a house rule), the submarine's (2) included. A sunk submarine earns a
//     sonar and no shots, whatever its card says, so its bonus number is
//     kept as the card shows it, dealt or entered, and changes nothing.
//   - Within one fleet no two surface ships share a cell; a submarine may
//     share cells with a ship (not with another submarine: a standard hand
//     may hold two), and different players' cards may share cells freely
//     (docs/royale.md §1, a house rule).
//   - Fleets dealt (option fleet: dealt, the default): the standard deck
//     has the five kinds equally; the advanced hand is a submarine plus
//     ship cards of the four surface kinds equally (docs/royale.md §2, a house rule).
//     Hands are 5 cards with 2-4 players and 4 with 5-6, the submarine
//     included; everyone keeps all but 2, never discarding the submarine.
//   - Fleets entered (option fleet: entered): the standard fleet is
//     KeepSize cards of any kinds without bonus numbers; the advanced fleet
//     is exactly one submarine and KeepSize-1 surface ships. Each surface
//     ship is entered with the bonus number printed on it, 1 to 5, which is
//     required: one left out would silently earn no shots when it sinks.
//     The submarine's bonus number is taken as printed (1 to 5) when given,
//     as a dealt submarine carries one, and may be left out, since it earns
//     a sonar and never shots.
//   - Each player keeps or enters once, with a salt of SaltSize bytes, in
//     any order; play starts with the last fleet, and the commitments are
//     fixed then. Keeping or entering again is refused (ErrPhase).
//
// Turns:
//
//   - The host picks who starts (Setup.First); play goes in seat order,
//     skipping eliminated players.
//   - The die is entered from the real die, or rolled by Tally (option die:
//     tally, docs/royale.md §3, a house rule); the engine only checks 1-3. Each turn has
//     exactly one roll, before any shot; a turn ends only when its player
//     says done (end), which is refused while the die's shots are not all
//     fired (standard) or before the die's volley (advanced), unless no
//     cell is left unshot.
//   - A standard bonus shot may be fired after the turn's roll, between or
//     after the die's shots, in the turn it is earned or any later one. The
//     bonus shots used first are those of the earliest card sunk.
//   - An advanced volley is exactly the die's number of cells (all cells
//     left, if fewer); a trophy's bonus volley is exactly its number of
//     cells (likewise) and is used whole, after the turn's roll, before or
//     after the die's volley. Action.Card picks the trophy; 0 picks the
//     earliest unused one that gives shots.
//   - Sonar (advanced only): one at the start of a turn (before the roll);
//     or, right after a volley that sank submarines, as many sonars as it
//     sank submarines, until the next shot, bonus or end. A player has the
//     base sonar once per game while their own submarine is afloat, plus
//     one per submarine they sank. At the start of a turn the base sonar is
//     used first; right after a volley that sank a submarine, the sonar used
//     is that submarine's, so the base one is still lost if the player's
//     own submarine sinks later. The answer
//     pings when any card afloat, the caller's own included, has a cell on
//     the line.
//
// Shots, sinking and the end:
//
//   - A shot hits every card afloat under its cell, the shooter's own
//     cards too; a volley's cells are resolved together (a cell under two
//     cards is a double hit). A card sinks when its every cell is shot; the
//     player who fired the sinking shot or volley takes it as a trophy, even
//     their own card. Cards sunk by one volley are listed in seat order, then
//     fleet order.
//   - Bounty (option bounty): the owner of a sunk card pays its shooter the
//     stake at once; nobody pays for their own card.
//   - A player without a card afloat is eliminated at once and loses their
//     unused bonus shots and sonars. An eliminated turn's player passes the
//     turn at once.
//   - The game ends when at most one player has a card afloat after a shot
//     or volley: that player wins, or, when none is left, the players that
//     shot or volley eliminated tie (docs/royale.md §4, a house rule).
//
// Money:
//
//   - Every player antes the table's ante (option ante) when the game is
//     set up; the pot is the carried pot plus the antes.
//   - One winner takes the whole pot. Tied winners take equal whole-unit
//     shares, in seat order; the indivisible remainder stays in the pot
//     (Settlement.Remainder and CarryOver), as a dice table splits. A pot of
//     0 pays nobody, and a share of 0 pays none of the tied.
//   - Game.Pot is the carried pot plus the antes until the end, and then
//     what stays in the pot.
//   - The host may abandon a game (player 0) in any phase before its end:
//     nobody wins and the whole pot goes back to the players as a closing
//     dice table returns it (game.CloseOut): equal whole shares, the
//     indivisible units one each in play order, which starts from the
//     game's first player (Setup.PlayOrder). Bounties already paid stand.
//
// What each viewer sees:
//
//   - Everyone sees the board, the sunk cards with their cells, sonar
//     calls and answers, every player's card counts, trophies, bonus shots
//     and sonars, and the commitments once play starts. Only the player
//     sees their own hand (while choosing), fleet with its hits, and salt.
//     Every fleet kept or entered, with its salt, is revealed when the game
//     is over, abandoned too (abandoned before every fleet was in, the
//     fleets that were in); discarded cards never are.
//   - A shot cell shows "miss", "hit" (with the number of cards hit) or
//     "sunk" once every card that covered it has sunk; a sunk card's cell
//     still under a card afloat shows "hit" (docs/royale.md §3, sunk markers).
//
// # Versions of the rules
//
// The rules above are Rules1 (CurrentRules), which every new game is set
// up with and named by (Setup.Rules). A game is refereed to its end by the
// rules it was set up under, so that what was decided stays decided: its
// stored actions replay, and audit, as they were taken. Games set up before
// setups named their rules are Rules0, which differed in three things:
//
//   - The indivisible units of an abandoned game's pot, and of the pot of a
//     table closed after the game, went one each in seat order, and still
//     do for such a game (Setup.ReturnOrder).
//   - A sonar line was taken with spaces around it (" j" for row J).
//   - An advanced surface ship could be entered without its bonus number,
//     taken as 0: it earns no shots when it sinks.
//
// The last two are input: Replay reads such a game's stored actions as
// Rules0 took them, while new input (Apply) is read as the rules above say
// in every game, Rules0's still in play too. (Rules0 took cells loosely as
// well, " B2", but stored them in their one spelling, which replays as it
// is.)
package royale
