package play

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// This file is who sits where: seating, joining with the code, leaving,
// and the host freeing a seat a phone took by mistake.

// seat puts a player in the next free seat. The seat's token hash is of a
// token nobody is given, until a phone claims the seat with Join.
func seat(ctx context.Context, tx pgx.Tx, tableID int64, name string) (db.Player, error) {
	name, err := cleanName(name)
	if err != nil {
		return db.Player{}, err
	}
	players, err := db.PlayerList(ctx, tx, tableID)
	if err != nil {
		return db.Player{}, err
	}
	seatNo, active := 1, 0
	for _, p := range players {
		if p.LeftAt == nil {
			active++
			if strings.EqualFold(p.Name, name) {
				return db.Player{}, fmt.Errorf("%w: %q already sits at this table", ErrNameTaken, p.Name)
			}
		}
		seatNo = max(seatNo, p.Seat+1)
	}
	if active >= maxPlayers {
		return db.Player{}, fmt.Errorf("%w: the table is full (%d players)", ErrInvalid, maxPlayers)
	}
	_, hash := newToken(prefixPlayer)
	p, err := db.PlayerInsert(ctx, tx, db.PlayerInsertParams{TableID: tableID, Name: name, Seat: seatNo, TokenHash: hash})
	if err != nil {
		return db.Player{}, err
	}
	if _, err := ledger.AppendEvent(ctx, tx, tableID, "player.seated", map[string]any{
		"player": p.ID, "name": p.Name, "seat": p.Seat}); err != nil {
		return db.Player{}, err
	}
	return p, nil
}

// Seat is the host seating a player at the end of the seat order.
func Seat(ctx context.Context, tx pgx.Tx, tableID int64, name string) (PlayerView, error) {
	if _, err := lockOpenTable(ctx, tx, tableID); err != nil {
		return PlayerView{}, err
	}
	if err := seatsMayChange(ctx, tx, tableID); err != nil {
		return PlayerView{}, err
	}
	p, err := seat(ctx, tx, tableID, name)
	if err != nil {
		return PlayerView{}, err
	}
	return playerView(p), nil
}

// Joined is a player who joined with the join code, with their token.
type Joined struct {
	Table       TableView  `json:"table"`
	Player      PlayerView `json:"player"`
	PlayerToken string     `json:"playerToken"`
}

// Join seats the bearer of a join code. A name matching a seat the host made
// that no phone has claimed yet claims it; any other name takes a new seat.
// A seat already claimed by a phone cannot be claimed again, so nobody at the
// table can take over another player's seat with the join code.
func Join(ctx context.Context, tx pgx.Tx, code, name string) (Joined, error) {
	name, err := cleanName(name)
	if err != nil {
		return Joined{}, err
	}
	norm, ok := joinCode(code)
	if !ok {
		return Joined{}, errNoJoinCode(code)
	}
	t, err := db.TableGetByJoinCode(ctx, tx, norm)
	if errors.Is(err, db.ErrNotFound) {
		return Joined{}, errNoJoinCode(code)
	}
	if err != nil {
		return Joined{}, err
	}
	if _, err := lockOpenTable(ctx, tx, t.ID); err != nil {
		return Joined{}, err
	}
	players, err := db.PlayerList(ctx, tx, t.ID)
	if err != nil {
		return Joined{}, err
	}
	token, hash := newToken(prefixPlayer)
	var p db.Player
	found := false
	for _, existing := range players {
		if existing.LeftAt == nil && strings.EqualFold(existing.Name, name) {
			p, found = existing, true
		}
	}
	if found {
		if p.ClaimedAt != nil {
			return Joined{}, fmt.Errorf("%w: %s has already joined from another phone; pick another name", ErrNameTaken, p.Name)
		}
		if p, err = db.PlayerClaim(ctx, tx, p.ID, hash); err != nil {
			return Joined{}, err
		}
	} else {
		if err := seatsMayChange(ctx, tx, t.ID); err != nil {
			return Joined{}, err
		}
		if p, err = seat(ctx, tx, t.ID, name); err != nil {
			return Joined{}, err
		}
		if p, err = db.PlayerClaim(ctx, tx, p.ID, hash); err != nil {
			return Joined{}, err
		}
	}
	if _, err := ledger.AppendEvent(ctx, tx, t.ID, "player.joined", map[string]any{"player": p.ID, "name": p.Name}); err != nil {
		return Joined{}, err
	}
	view, err := Table(ctx, tx, t.ID, Principal{Role: RolePlayer, TableID: t.ID, PlayerID: p.ID})
	if err != nil {
		return Joined{}, err
	}
	return Joined{Table: view, Player: playerView(p), PlayerToken: token}, nil
}

// Leave takes a player off the table from the next round on. A player in the
// round being played must finish it first.
func Leave(ctx context.Context, tx pgx.Tx, who Principal, playerID int64) (PlayerView, error) {
	if who.Role == RolePlayer && who.PlayerID != playerID {
		return PlayerView{}, fmt.Errorf("%w: a player may only take themselves off the table", ErrForbidden)
	}
	if err := who.mayWrite(); err != nil {
		return PlayerView{}, err
	}
	if _, err := lockOpenTable(ctx, tx, who.TableID); err != nil {
		return PlayerView{}, err
	}
	if err := seatsMayChange(ctx, tx, who.TableID); err != nil {
		return PlayerView{}, err
	}
	p, err := tablePlayer(ctx, tx, who.TableID, playerID)
	if err != nil {
		return PlayerView{}, err
	}
	if p.LeftAt != nil {
		return PlayerView{}, fmt.Errorf("%w: %s already left the table", ErrInvalid, p.Name)
	}
	if r, err := db.RoundLatest(ctx, tx, who.TableID); err == nil && r.Status == db.RoundOpen {
		return PlayerView{}, fmt.Errorf("%w: %s can leave once round %d is settled", ErrRoundPlaying, p.Name, r.Number)
	}
	if p, err = db.PlayerLeave(ctx, tx, playerID); err != nil {
		return PlayerView{}, err
	}
	if _, err := ledger.AppendEvent(ctx, tx, who.TableID, "player.left", map[string]any{"player": p.ID, "name": p.Name}); err != nil {
		return PlayerView{}, err
	}
	return playerView(p), nil
}

// Seated checks that each player id belongs to the table, so money is only
// ever moved for the table's own players; the bank (id 0) may be a party to
// a payment and is skipped when bank is true.
func Seated(ctx context.Context, q db.DBTX, tableID int64, bank bool, ids ...int64) error {
	for _, id := range ids {
		if id == ledger.Bank && bank {
			continue
		}
		if _, err := tablePlayer(ctx, q, tableID, id); err != nil {
			return err
		}
	}
	return nil
}

// seatsMayChange refuses to seat or unseat anyone while the table's game of
// rounds is being played: from its first round until it is won, the game
// keeps the players it began with.
func seatsMayChange(ctx context.Context, q db.DBTX, tableID int64) error {
	st, err := load(ctx, q, tableID)
	if err != nil {
		return err
	}
	if st.rs.Goal.Kind == game.GoalRound || st.game == nil || st.game.Over() {
		return nil
	}
	return fmt.Errorf("%w: nobody joins or leaves a game of rounds once it has begun, since the totals would no longer compare; wait until it is won", ErrGameUnderway)
}

// Invitation is what a join code shows before joining: the table and its
// seats, so a phone can offer the open seats to tap.
type Invitation struct {
	Table     string       `json:"table"`
	Preset    string       `json:"preset"`
	Currency  string       `json:"currency"`
	Ante      int64        `json:"ante"`
	Players   []PlayerView `json:"players"`
	OpenSeats []string     `json:"openSeats"`
}

// Invite reads the table a join code belongs to. The code is the secret
// that lets a phone join, so it may also see who sits there.
func Invite(ctx context.Context, q db.DBTX, code string) (Invitation, error) {
	norm, ok := joinCode(code)
	if !ok {
		return Invitation{}, errNoJoinCode(code)
	}
	t, err := db.TableGetByJoinCode(ctx, q, norm)
	if errors.Is(err, db.ErrNotFound) || (err == nil && t.Status != db.TableOpen) {
		return Invitation{}, errNoJoinCode(code)
	}
	if err != nil {
		return Invitation{}, err
	}
	rs, err := ruleset(t)
	if err != nil {
		return Invitation{}, err
	}
	players, err := db.PlayerList(ctx, q, t.ID)
	if err != nil {
		return Invitation{}, err
	}
	inv := Invitation{Table: t.Name, Preset: rs.Preset, Currency: t.Currency, Ante: rs.Ante,
		Players: []PlayerView{}, OpenSeats: []string{}}
	for _, p := range players {
		if p.LeftAt != nil {
			continue
		}
		inv.Players = append(inv.Players, playerView(p))
		if p.ClaimedAt == nil {
			inv.OpenSeats = append(inv.OpenSeats, p.Name)
		}
	}
	return inv, nil
}

// Release is the host freeing a seat a phone has claimed: that phone's token
// stops working at once and the seat can be claimed again with the join
// code. It is the host's remedy when someone joined as a player who was not
// theirs to be (the host may play for friends without phones).
func Release(ctx context.Context, tx pgx.Tx, who Principal, playerID int64) (PlayerView, error) {
	if who.Role != RoleHost {
		return PlayerView{}, fmt.Errorf("%w: only the host frees a seat", ErrForbidden)
	}
	if _, err := lockOpenTable(ctx, tx, who.TableID); err != nil {
		return PlayerView{}, err
	}
	p, err := tablePlayer(ctx, tx, who.TableID, playerID)
	if err != nil {
		return PlayerView{}, err
	}
	if p.ClaimedAt == nil || p.LeftAt != nil {
		return PlayerView{}, fmt.Errorf("%w: no phone holds %s's seat", ErrInvalid, p.Name)
	}
	_, hash := newToken(prefixPlayer)
	if p, err = db.PlayerRelease(ctx, tx, playerID, hash); err != nil {
		return PlayerView{}, err
	}
	if _, err := ledger.AppendEvent(ctx, tx, who.TableID, "player.released", map[string]any{"player": p.ID, "name": p.Name}); err != nil {
		return PlayerView{}, err
	}
	return playerView(p), nil
}
