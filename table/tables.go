package table

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
	"github.com/tally-dice/tally/ledger"
)

// maxPlayers bounds a table. Sixteen is more than any bar table and keeps
// settle-up exact.
const maxPlayers = 16

// scopeCreate is the Idempotency-Key scope of making a table: nobody holds
// a token yet, so these keys must be random.
const scopeCreate = "anonymous"

// NewTable is what a host asks for when making a table.
type NewTable struct {
	Name        string       `json:"name"`
	Preset      string       `json:"preset"`
	Options     game.Options `json:"options"`
	Currency    string       `json:"currency"`
	NoOverdraft bool         `json:"noOverdraft"`
	Players     []string     `json:"players"`
	// Game is "dice" (the default: the Ship, Captain and Crew family and
	// its cousins, under Preset and Options) or "royale" (Battleship
	// Royale, under Royale).
	Game   string          `json:"game,omitempty"`
	Royale *royale.Options `json:"royale,omitempty"`
	// Host names the seat, one of Players, that is the host's own when the
	// host plays: the host's phone is that player's phone too. Empty when
	// the host only keeps the books.
	Host string `json:"host,omitempty"`
}

// The games a table is made to play (NewTable.Game); a crew is made with
// CreateCrew.
const (
	GameDice   = db.GameDice
	GameRoyale = db.GameRoyale
)

// madeToPlay sets a table being made up for each game CreateTable makes:
// it checks the game's part of what the host asks for and puts it in the
// table's row.
var madeToPlay = map[string]func(in NewTable, t *db.NewTable) error{
	GameDice:   diceSetUp,
	GameRoyale: royaleSetUp,
}

// Created is a new table with the secrets only its host ever sees.
type Created struct {
	Table      TableView `json:"table"`
	HostToken  string    `json:"hostToken"`
	AuditToken string    `json:"auditToken"`
	JoinCode   string    `json:"joinCode"`
}

// CreateTable makes a table, its pot and bank, and its first seats. The
// keys of tables being made share one scope.
func (s *Service) CreateTable(ctx context.Context, k Key, in NewTable) (Reply, error) {
	t, names, err := newTableRow(in)
	if err != nil {
		return Reply{}, err
	}
	seats := make([]newSeat, len(names))
	for i, n := range names {
		seats[i] = newSeat{name: n}
	}
	if err := hostAmong(seats, in.Host); err != nil {
		return Reply{}, err
	}
	k.scope = scopeCreate
	return s.create(ctx, k, t, seats)
}

// hostAmong marks the seat named host, if any, as the host's own.
func hostAmong(seats []newSeat, host string) error {
	if host == "" {
		return nil
	}
	name, err := cleanName(host)
	if err != nil {
		return fmt.Errorf("host: %w", err)
	}
	for i := range seats {
		if strings.EqualFold(seats[i].name, name) {
			seats[i].host = true
			return nil
		}
	}
	return fmt.Errorf("%w: host: %q is none of the players; name the host's own seat among them, or leave it out if the host does not play", ErrInvalid, host)
}

// newTableRow checks what a host asks for and makes it a table's row and
// its players' names.
func newTableRow(in NewTable) (db.NewTable, []string, error) {
	rs, err := game.NewRuleset(in.Preset, in.Options)
	if err != nil {
		return db.NewTable{}, nil, err
	}
	t := db.NewTable{Rules: rs, NoOverdraft: in.NoOverdraft}
	if in.Game == "" {
		in.Game = GameDice
	}
	setUp, ok := madeToPlay[in.Game]
	if !ok {
		return db.NewTable{}, nil, fmt.Errorf("%w: no game %q (dice or royale)", ErrInvalid, in.Game)
	}
	if err := setUp(in, &t); err != nil {
		return db.NewTable{}, nil, err
	}
	t.Game = in.Game
	if len(in.Players) > maxPlayers {
		return db.NewTable{}, nil, fmt.Errorf("%w: at most %d players, not %d", ErrInvalid, maxPlayers, len(in.Players))
	}
	name, err := cleanText(in.Name, "the table's name", maxTableRunes)
	if err != nil {
		return db.NewTable{}, nil, err
	}
	if name == "" {
		name = "Table"
	}
	currency, err := cleanText(in.Currency, "the currency", maxCurrencyRunes)
	if err != nil {
		return db.NewTable{}, nil, err
	}
	if currency == "" {
		currency = "units"
	}
	names := make([]string, len(in.Players))
	for i, n := range in.Players {
		if names[i], err = cleanName(n); err != nil {
			return db.NewTable{}, nil, err
		}
	}
	t.Name, t.Currency = name, currency
	return t, names, nil
}

// newSeat is a player a table is made with: a name, at a crew's night the
// crew member they are, and whether the seat is the host's own.
type newSeat struct {
	name   string
	member game.PlayerID
	host   bool
}

// create makes table t with its first seats, under a fresh join code (a
// new one when the code was taken meanwhile). k's scope is its sender's:
// everyone's (scopeCreate) for a table made by someone holding no token.
func (s *Service) create(ctx context.Context, k Key, t db.NewTable, seats []newSeat) (Reply, error) {
	k.made = true
	for attempt := 1; ; attempt++ {
		t.JoinCode = newJoinCode()
		reply, err := s.createOnce(ctx, k, t, seats)
		// A join code or a key taken meanwhile: a new code, or the key's
		// stored answer, on the next attempt.
		taken := db.ConflictOn(err)
		if taken != db.KeyJoinCode && taken != db.KeyIdempotency && !retryable(err) || attempt == maxAttempts {
			s.noteWrite(reply, err)
			return reply, serviceError(err)
		}
	}
}

// createOnce makes the table in one transaction: the key is looked up and
// the table's id taken in one round trip, the table made and its players
// seated in a second, and its events written with the commit in a third.
func (s *Service) createOnce(ctx context.Context, k Key, t db.NewTable, seats []newSeat) (reply Reply, err error) {
	conn, err := s.acquire(ctx)
	if err != nil {
		return Reply{}, err
	}
	defer release(conn, &err)
	b := db.NewBatch(ctx)
	b.Begin()
	var stored db.IdempotencyKey
	if k.Key != "" {
		b.IdempotencyKeyGet(db.KeyRef{Scope: k.scope, Key: s.keys.StoredKey(k.Key), Since: s.now().Add(-KeyRetention)}, &stored)
	}
	b.TableNextID(&t.ID)
	if err := b.Send(conn); err != nil {
		return Reply{}, err
	}
	if stored.RequestHash != nil {
		var head chain.Head // the table made is not locked here: its head is not read
		return s.replay(stored, k, head)
	}
	host, audit := "", ""
	host, t.HostTokenHash = newToken(prefixHost, t.ID)
	audit, t.AuditTokenHash = newToken(prefixAudit, t.ID)
	st := &tableState{}
	w := &writer{ctx: ctx, conn: conn, keys: s.keys, who: Principal{Role: RoleHost, TableID: t.ID}, st: st, out: db.NewBatch(ctx),
		head: chain.Start(), now: s.now()}
	w.out.TableInsert(t, &st.row)
	st.row.ID = t.ID
	for _, n := range seats {
		if err := w.seatMember(n, nil); err != nil {
			return Reply{}, err
		}
	}
	if t.Crew != 0 {
		w.out.CrewNightInsert(t.Crew, t.ID)
	}
	if err := w.flush(); err != nil {
		return Reply{}, err
	}
	if st.game, err = gameOf(st); err != nil {
		return Reply{}, err
	}
	if _, err := w.emit("table.created", tableCreated{Name: t.Name, Ruleset: t.Rules, Currency: t.Currency,
		NoOverdraft: t.NoOverdraft, Royale: t.Royale, Crew: t.Crew, Kind: crewKind(t.Game)}); err != nil {
		return Reply{}, err
	}
	for _, p := range st.players {
		if _, err := w.emit("player.seated", playerSeated{Player: p.ID, Name: p.Name, Seat: p.Seat, Member: p.Member, Host: p.Host}); err != nil {
			return Reply{}, err
		}
	}
	return w.commit(k, Created{Table: st.view(w.who), HostToken: host, AuditToken: audit, JoinCode: st.row.JoinCode})
}

// The payloads of the table's own events.
type (
	tableCreated struct {
		Currency    string       `json:"currency"`
		Name        string       `json:"name"`
		NoOverdraft bool         `json:"noOverdraft"`
		Ruleset     game.Ruleset `json:"ruleset"`
		// Royale is a Battleship Royale table's options.
		Royale *royale.Options `json:"royale,omitempty"`
		// Kind is "crew" for a crew; Crew, the crew a night was made for.
		Kind string `json:"kind,omitempty"`
		Crew int64  `json:"crew,omitempty"`
	}
	playerSeated struct {
		Name   string        `json:"name"`
		Player game.PlayerID `json:"player"`
		Seat   int           `json:"seat"`
		// Member is, at a crew's night, the crew member the player is.
		Member game.PlayerID `json:"member,omitempty"`
		// Host marks the host's own seat.
		Host bool `json:"host,omitempty"`
	}
	playerEvent struct {
		Name   string        `json:"name"`
		Player game.PlayerID `json:"player"`
	}
)

// joinAlphabet leaves out letters and digits people confuse across a bar
// table (0/O, 1/I/L).
const joinAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// newJoinCode is joinCodeLength characters from joinAlphabet, each drawn
// uniformly: bytes from 248 up are drawn again, because 256 is not a
// multiple of 31 and taking them modulo 31 would favour the first letters.
func newJoinCode() string {
	const fair = 256 - 256%len(joinAlphabet)
	code := make([]byte, 0, joinCodeLength)
	b := make([]byte, 2*joinCodeLength)
	for len(code) < joinCodeLength {
		if _, err := rand.Read(b); err != nil {
			panic(fmt.Sprintf("crypto/rand failed: %v", err))
		}
		for _, x := range b {
			if int(x) < fair && len(code) < joinCodeLength {
				code = append(code, joinAlphabet[int(x)%len(joinAlphabet)])
			}
		}
	}
	return string(code)
}

// Table reads a table as the caller may see it.
func (s *Service) Table(ctx context.Context, a Auth) (TableView, error) {
	r, who, err := s.read(ctx, a, readPlan{accounts: true, round: true, royale: true})
	if err != nil {
		return TableView{}, err
	}
	st, err := r.state()
	if err != nil {
		return TableView{}, err
	}
	return st.view(who), nil
}

// Close closes the table: the pot goes back to the players of the last
// round as the engine shares it (docs/rules.md §6). A round being played must be
// finished first. Afterwards only withdrawals and settlement payments are
// accepted.
func (s *Service) Close(ctx context.Context, a Auth, k Key) (Reply, error) {
	var crew int64
	reply, err := s.royaleWrite(ctx, a, k, func(w *writer) (any, error) {
		crew = w.st.row.Crew
		if err := w.who.mustHost("close the table"); err != nil {
			return nil, err
		}
		if err := w.openTable(); err != nil {
			return nil, err
		}
		st := w.st
		if err := st.game.closing(); err != nil {
			return nil, err
		}
		// The pot goes back to the players of the last round or game in
		// play order: the leftover units go one each from its first player
		// (for a game, in the order its rules hand money back).
		last := st.game.played()
		closing := tableClosed{}
		if pot := w.books().Balance(ledger.Pot); pot > 0 {
			if len(last) == 0 {
				return nil, fmt.Errorf("%w: the pot holds %d but no round was played to return it to", ErrInvalidAmount, pot)
			}
			if err := w.post(ledger.CloseOut(pot, game.CloseOut(pot, last))); err != nil {
				return nil, err
			}
			closing.CloseOut = w.head.Seq
		}
		w.out.TableClose(st.row.ID, w.now)
		if _, err := w.emit("table.closed", closing); err != nil {
			return nil, err
		}
		now := w.now
		st.row.Status, st.row.ClosedAt = db.TableClosed, &now
		st.accounts = w.books().Accounts()
		return st.view(w.who), nil
	})
	if err == nil && crew != 0 && !reply.Replayed {
		// A crew's night rolls into the crew as it closes. Should this
		// fail, the night is closed all the same and the crew's page
		// offers to roll it (RollNight).
		// It outlives a phone that hangs up once the night is closed.
		_, _ = s.rollNight(context.WithoutCancel(ctx), target{tableID: crew, open: true}, Key{}, a.TableID,
			func(*writer) error { return nil })
	}
	return reply, err
}

// tableClosed is the payload of table.closed: the event of the close-out,
// if the pot held anything.
type tableClosed struct {
	CloseOut int64 `json:"closeOut,omitempty"`
}

// tableWrite runs a write at the caller's table.
func (s *Service) tableWrite(ctx context.Context, a Auth, k Key, do func(w *writer) (any, error)) (Reply, error) {
	return s.writeAt(ctx, tokenTarget(a), a, k, do)
}

// royaleWrite is tableWrite for a write that needs the table's latest
// Battleship Royale game: the game's own, and those a game being played
// may refuse (closing the table, leaving, freeing a seat). The dice
// games' writes leave it unread.
func (s *Service) royaleWrite(ctx context.Context, a Auth, k Key, do func(w *writer) (any, error)) (Reply, error) {
	t := tokenTarget(a)
	t.royale = true
	return s.writeAt(ctx, t, a, k, do)
}

func (s *Service) writeAt(ctx context.Context, t target, a Auth, k Key, do func(w *writer) (any, error)) (Reply, error) {
	if err := checkAuth(a); err != nil {
		return Reply{}, err
	}
	k.scope = tokenScope(t.hash)
	return s.write(ctx, t, k, do)
}
