package table

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// This file is who sits where: seating, joining with the code, leaving,
// and the host freeing a seat a phone took by mistake.

// seat queues a player, whose name cleanName has checked, in the next free
// seat; the player joins st.players when the write is flushed. hash is the
// hash of the token of the phone that takes the seat as it is made
// (claimed); without one, the seat gets the hash of a token nobody is
// given, until a phone claims the seat.
func (w *writer) seat(name string, hash []byte) error {
	if err := w.st.membersOnly(); err != nil {
		return err
	}
	return w.seatMember(newSeat{name: name}, hash)
}

// seatMember is seat for a seat a table is made with: a crew member at one
// of the crew's nights, or the host's own seat, which the host's phone
// claims as it is made.
func (w *writer) seatMember(n newSeat, hash []byte) error {
	name := n.name
	seatNo, active := 1, 0
	taken := slices.Clone(w.st.players)
	for _, p := range w.seated {
		taken = append(taken, *p)
	}
	for _, p := range taken {
		if p.LeftAt == nil {
			active++
			if strings.EqualFold(p.Name, name) {
				return fmt.Errorf("%w: %q already sits at this table", ErrNameTaken, p.Name)
			}
		}
		seatNo = max(seatNo, p.Seat+1)
	}
	if active >= maxPlayers {
		return fmt.Errorf("%w: the table is full (%d players)", ErrInvalid, maxPlayers)
	}
	// The host's own seat is claimed by the host's phone, whose token is
	// the host's: the seat's own token is one nobody is given.
	claimed := hash != nil || n.host
	if hash == nil {
		_, hash = newToken(prefixPlayer, w.st.row.ID)
	}
	p := &db.Player{Name: name, Seat: seatNo, TokenHash: hash, Member: n.member, Host: n.host}
	w.out.PlayerInsert(w.st.row.ID, db.NewPlayer{Name: name, Seat: seatNo, TokenHash: hash, Claimed: claimed, Member: n.member, Host: n.host}, p)
	w.seated = append(w.seated, p)
	return nil
}

// Seat is the host seating a player at the end of the seat order.
func (s *Service) Seat(ctx context.Context, a Auth, k Key, name string) (Reply, error) {
	name, err := cleanName(name)
	if err != nil {
		return Reply{}, err
	}
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mustHost("seat players"); err != nil {
			return nil, err
		}
		if err := w.openTable(); err != nil {
			return nil, err
		}
		if err := w.st.game.underway(); err != nil {
			return nil, err
		}
		if err := w.seat(name, nil); err != nil {
			return nil, err
		}
		if err := w.flush(); err != nil {
			return nil, err
		}
		p := w.st.players[len(w.st.players)-1]
		if _, err := w.emit("player.seated", playerSeated{Player: p.ID, Name: p.Name, Seat: p.Seat}); err != nil {
			return nil, err
		}
		return playerView(p), nil
	})
}

// JoinInput is what a phone sends to join a table.
type JoinInput struct {
	Code string `json:"code"`
	Name string `json:"name"`
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
// table can take over another player's seat with the join code. Keys of
// joins share one scope per table: they must be random.
func (s *Service) Join(ctx context.Context, k Key, in JoinInput) (Reply, error) {
	name, err := cleanName(in.Name)
	if err != nil {
		return Reply{}, err
	}
	tableID, err := s.tableOfCode(ctx, in.Code)
	if err != nil {
		return Reply{}, err
	}
	k.scope = scopeJoin
	// A claim reads the table's Battleship Royale game: a seat whose fleet
	// the host holds is not claimed while its game is played.
	return s.write(ctx, target{tableID: tableID, open: true, royale: true}, k, func(w *writer) (any, error) {
		if err := w.openTable(); err != nil {
			return nil, err
		}
		st := w.st
		token, hash := newToken(prefixPlayer, st.row.ID)
		var p db.Player
		for _, existing := range st.players {
			if existing.LeftAt == nil && strings.EqualFold(existing.Name, name) {
				p = existing
			}
		}
		if p.ID != 0 {
			if p.Host {
				return nil, fmt.Errorf("%w: %s is the host's own seat, played from the host's phone; pick another name", ErrNameTaken, p.Name)
			}
			if p.ClaimedAt != nil {
				return nil, fmt.Errorf("%w: %s has already joined from another phone; pick another name", ErrNameTaken, p.Name)
			}
			if err := st.game.claiming(p); err != nil {
				return nil, err
			}
			w.out.PlayerClaim(st.row.ID, p.ID, hash)
			now := w.now
			p.ClaimedAt, p.TokenHash = &now, hash
		} else {
			if err := st.game.underway(); err != nil {
				return nil, err
			}
			if err := w.seat(name, hash); err != nil {
				return nil, err
			}
			if err := w.flush(); err != nil {
				return nil, err
			}
			p = st.players[len(st.players)-1]
			if _, err := w.emit("player.seated", playerSeated{Player: p.ID, Name: p.Name, Seat: p.Seat}); err != nil {
				return nil, err
			}
		}
		if _, err := w.emit("player.joined", playerEvent{Player: p.ID, Name: p.Name}); err != nil {
			return nil, err
		}
		w.replacePlayer(p)
		who := Principal{Role: RolePlayer, TableID: st.row.ID, Player: p.ID}
		return Joined{Table: st.view(who), Player: playerView(p), PlayerToken: token}, nil
	})
}

// scopeJoin is the Idempotency-Key scope of joins at a table.
const scopeJoin = "join"

// tableOfCode finds the table a join code opens, in one round trip.
func (s *Service) tableOfCode(ctx context.Context, code string) (int64, error) {
	norm, ok := joinCode(code)
	if !ok {
		return 0, errNoJoinCode(code)
	}
	conn, err := s.acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	var id int64
	b := db.NewBatch(ctx)
	b.JoinCodeGet(norm, &id)
	if err := b.Send(conn); err != nil {
		return 0, serviceError(err)
	}
	if id == 0 {
		return 0, errNoJoinCode(code)
	}
	return id, nil
}

// Leave takes a player off the table from the next round on. A player in the
// round being played must finish it first.
func (s *Service) Leave(ctx context.Context, a Auth, k Key, player int64) (Reply, error) {
	id := game.PlayerID(player)
	return s.royaleWrite(ctx, a, k, func(w *writer) (any, error) {
		if w.who.Role == RolePlayer && w.who.Player != id {
			return nil, fmt.Errorf("%w: a player may only take themselves off the table", ErrForbidden)
		}
		if err := w.who.mayWrite(); err != nil {
			return nil, err
		}
		if err := w.openTable(); err != nil {
			return nil, err
		}
		if err := w.st.game.underway(); err != nil {
			return nil, err
		}
		p, err := w.st.player(id)
		if err != nil {
			return nil, err
		}
		if p.LeftAt != nil {
			return nil, fmt.Errorf("%w: %s already left the table", ErrInvalid, p.Name)
		}
		if err := w.st.game.leaving(p); err != nil {
			return nil, err
		}
		w.out.PlayerLeave(w.st.row.ID, id)
		if _, err := w.emit("player.left", playerEvent{Player: p.ID, Name: p.Name}); err != nil {
			return nil, err
		}
		now := w.now
		p.LeftAt = &now
		return playerView(p), nil
	})
}

// Release is the host freeing a seat a phone has claimed: that phone's token
// stops working at once and the seat can be claimed again with the join
// code. It is the host's remedy when someone joined as a player who was not
// theirs to be (the host may play for friends without phones).
func (s *Service) Release(ctx context.Context, a Auth, k Key, player int64) (Reply, error) {
	id := game.PlayerID(player)
	return s.royaleWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mustHost("free a seat"); err != nil {
			return nil, err
		}
		if err := w.openTable(); err != nil {
			return nil, err
		}
		p, err := w.st.player(id)
		if err != nil {
			return nil, err
		}
		if p.ClaimedAt == nil || p.LeftAt != nil {
			return nil, fmt.Errorf("%w: no phone holds %s's seat", ErrInvalid, p.Name)
		}
		// Freed, the host's own seat could be taken with the code while
		// the host's token still played it.
		if p.Host {
			return nil, fmt.Errorf("%w: %s's seat is the host's own: it moves only with the host role (host recovery)", ErrInvalid, p.Name)
		}
		// A freed seat is the host's to play (royaleView): freed during a
		// game, it would show the host a fleet a phone chose.
		if err := w.st.game.freeing(p); err != nil {
			return nil, err
		}
		_, hash := newToken(prefixPlayer, w.st.row.ID)
		w.out.PlayerRelease(w.st.row.ID, id, hash)
		// Whoever held the seat may have said where its money goes: the
		// next holder's money must not go there (docs/payments.md §2).
		w.out.PaymentHandlesForget(w.st.row.ID, id)
		// The phone that held the seat is told why its token stopped
		// working (whyRetired).
		w.out.RetiredTokenInsert(w.st.row.ID, p.TokenHash, db.RetiredSeatFreed, id, w.now)
		if _, err := w.emit("player.released", playerEvent{Player: p.ID, Name: p.Name}); err != nil {
			return nil, err
		}
		p.ClaimedAt = nil
		return playerView(p), nil
	})
}

// replacePlayer puts a player's new state into the table read for the
// answer.
func (w *writer) replacePlayer(p db.Player) {
	for i := range w.st.players {
		if w.st.players[i].ID == p.ID {
			w.st.players[i] = p
		}
	}
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
func (s *Service) Invite(ctx context.Context, code string) (_ Invitation, err error) {
	tableID, err := s.tableOfCode(ctx, code)
	if err != nil {
		return Invitation{}, err
	}
	conn, err := s.acquire(ctx)
	if err != nil {
		return Invitation{}, err
	}
	defer release(conn, &err)
	var t db.Table
	var players []db.Player
	b := db.NewBatch(ctx)
	b.BeginRead()
	b.TableGet(tableID, &t)
	b.PlayerList(tableID, &players)
	b.Commit()
	if err := b.Send(conn); err != nil {
		return Invitation{}, serviceError(err)
	}
	if t.ID == 0 || t.Status != db.TableOpen {
		return Invitation{}, errNoJoinCode(code)
	}
	inv := Invitation{Table: t.Name, Preset: t.Rules.Preset, Currency: t.Currency, Ante: t.Rules.Ante,
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
