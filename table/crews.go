package table

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// This file is crews (issue 14): a group that plays night after night. A
// crew is kept as a table of kind crew, which plays no rounds: its players
// are the members (who join with its code, as at any table, and keep their
// token, so a member's phone remembers them), its accounts their running
// balances, and its ledger, settle-up, payments, history and audit are a
// table's. A night is a table made for the crew, seating members; when it
// closes, its closing balances roll into the crew in one journal entry.

// NewCrew is what the person starting a crew asks for.
type NewCrew struct {
	Name     string   `json:"name"`
	Currency string   `json:"currency"`
	Members  []string `json:"members"`
}

// CreateCrew makes a crew with its first members; the answer is a table's
// (the crew's host token, audit token and join code).
func (s *Service) CreateCrew(ctx context.Context, k Key, in NewCrew) (Reply, error) {
	t, names, err := newTableRow(NewTable{Name: in.Name, Currency: in.Currency, Players: in.Members})
	if err != nil {
		return Reply{}, err
	}
	if in.Name == "" {
		t.Name = "Crew"
	}
	t.Game = db.GameCrew
	seats := make([]newSeat, len(names))
	for i, n := range names {
		seats[i] = newSeat{name: n}
	}
	k.scope = scopeCreate
	return s.create(ctx, k, t, seats)
}

// crewKind is what table.created records of a table's kind: "crew", or
// nothing for a table.
func crewKind(g string) string {
	if g == db.GameCrew {
		return db.GameCrew
	}
	return ""
}

// NewNight is a night made for a crew: a table's settings, and the members
// who sit down (in seat order).
type NewNight struct {
	NewTable
	Members []game.PlayerID `json:"members"`
	// Host is the member, one of Members, whose seat is the host's own when
	// whoever makes the night plays (it holds the night's host token).
	Host game.PlayerID `json:"host,omitempty"`
}

// CreateNight makes a night for the crew whose token a holds: a table that
// seats the members named, each as the crew's player they are, whose
// closing balances roll into the crew. Any member (or the crew's host)
// makes one, and holds the night's host token.
func (s *Service) CreateNight(ctx context.Context, a Auth, k Key, in NewNight) (Reply, error) {
	if len(in.Players) > 0 {
		return Reply{}, fmt.Errorf("%w: a crew's night seats members (members: their ids), not names", ErrInvalid)
	}
	if len(in.Members) < 1 {
		return Reply{}, fmt.Errorf("%w: members: name at least one member of the crew to sit down", ErrInvalid)
	}
	r, who, err := s.read(ctx, a, readPlan{})
	if err != nil {
		return Reply{}, err
	}
	if r.row.Game != db.GameCrew {
		return Reply{}, fmt.Errorf("%w: table %d is not a crew", ErrNotFound, a.TableID)
	}
	if err := who.mayWrite(); err != nil {
		return Reply{}, err
	}
	if r.row.Status != db.TableOpen {
		return Reply{}, fmt.Errorf("%w: crew %d was closed: it has no more nights", ErrTableClosed, r.row.ID)
	}
	seats := make([]newSeat, 0, len(in.Members))
	for _, m := range in.Members {
		i := slices.IndexFunc(r.Players, func(p db.Player) bool { return p.ID == m })
		switch {
		case i < 0 || r.Players[i].LeftAt != nil:
			return Reply{}, fmt.Errorf("%w: member %d is not in crew %d", ErrNotFound, m, a.TableID)
		case slices.ContainsFunc(seats, func(x newSeat) bool { return x.member == m }):
			return Reply{}, fmt.Errorf("%w: member %d is named twice", ErrInvalid, m)
		}
		seats = append(seats, newSeat{name: r.Players[i].Name, member: m, host: m == in.Host})
	}
	if in.Host != 0 && !slices.Contains(in.Members, in.Host) {
		return Reply{}, fmt.Errorf("%w: host: member %d does not sit down tonight; name the host's own seat among members, or leave it out if the host does not play", ErrInvalid, in.Host)
	}
	in.Currency = r.row.Currency
	t, _, err := newTableRow(in.NewTable)
	if err != nil {
		return Reply{}, err
	}
	t.Crew = r.row.ID
	k.scope = tokenScope(hashToken(a.Token)) // the member's keys are theirs
	return s.create(ctx, k, t, seats)
}

// nightRolled is the metadata of a night's roll-over into its crew.
type nightRolled struct {
	Night int64  `json:"night"`
	Name  string `json:"name"`
}

// RollNight rolls a closed night's closing balances into its crew: one
// journal entry at the crew moves each member's balance (and the cash the
// night's bank holds) onto the crew's accounts. A night rolls once; rolling
// it again answers with the crew's balances and changes nothing. Closing a
// night rolls it; this is for a night whose roll-over did not happen then
// (the server stopped between the two).
func (s *Service) RollNight(ctx context.Context, a Auth, k Key, night int64) (Reply, error) {
	t := tokenTarget(a)
	return s.rollNight(ctx, t, k, night, func(w *writer) error { return w.who.mayWrite() })
}

func (s *Service) rollNight(ctx context.Context, t target, k Key, night int64, may func(w *writer) error) (Reply, error) {
	var n []nightHistory
	var rolled []int64
	t.also = func(b *db.Batch) {
		rolled = nil
		n = queueNights(b, []int64{night}, false)
		b.JournalRolledNights(t.tableID, &rolled)
	}
	if t.token != "" {
		k.scope = tokenScope(t.hash)
	}
	return s.write(ctx, t, k, func(w *writer) (any, error) {
		if err := may(w); err != nil {
			return nil, err
		}
		crew := w.st.row
		switch {
		case crew.Game != db.GameCrew:
			return nil, fmt.Errorf("%w: table %d is not a crew", ErrNotFound, crew.ID)
		case n[0].row.ID == 0 || n[0].row.Crew != crew.ID:
			return nil, fmt.Errorf("%w: table %d is not a night of crew %d", ErrNotFound, night, crew.ID)
		case n[0].row.Status != db.TableClosed:
			return nil, fmt.Errorf("%w: night %d is still open: its balances roll into the crew when it closes", ErrRoundPlaying, night)
		}
		if !slices.Contains(rolled, night) {
			e, err := n[0].entry()
			if err != nil {
				return nil, err
			}
			if len(e.Lines) > 0 { // a night where nobody won or lost moves nothing
				if err := w.post(e); err != nil {
					return nil, err
				}
			}
		}
		return balancesView(w.st.row, ledger.Sheet(crew.Currency, w.books().Accounts(), w.st.players)), nil
	})
}

// entry moves a closed night's balances onto its crew's accounts: each
// member's balance to the member, the night bank's to the crew's bank. A
// closed night's pot is empty (closing returned it).
func (n nightHistory) entry() (ledger.Entry, error) {
	member := n.members()
	e := ledger.Entry{Kind: ledger.KindNight, Memo: "night: " + n.row.Name, Meta: nightRolled{Night: n.row.ID, Name: n.row.Name}}
	for _, a := range n.accounts {
		switch {
		case a.Balance == 0:
		case a.Kind == db.AccountPlayer && member[a.Player] != 0:
			e.Lines = append(e.Lines, ledger.Line{Account: ledger.PlayerAccount(member[a.Player]), Amount: a.Balance})
		case a.Kind == db.AccountWorld:
			e.Lines = append(e.Lines, ledger.Line{Account: ledger.World, Amount: a.Balance})
		default:
			return ledger.Entry{}, fmt.Errorf("%w: night %d's %s account holds %d that belongs to no member", ErrHistoryBroken, n.row.ID, a.Kind, a.Balance)
		}
	}
	return e, nil
}

// members maps a night's players to the crew members they are.
func (n nightHistory) members() map[game.PlayerID]game.PlayerID {
	member := make(map[game.PlayerID]game.PlayerID, len(n.players))
	for _, p := range n.players {
		member[p.ID] = p.Member
	}
	return member
}

// nightHistory is one of a crew's nights as the crew reads it: its row,
// accounts and players, and (for the figures) its rounds and actions.
type nightHistory struct {
	row      db.Table
	accounts []db.Account
	players  []db.Player
	rounds   []db.Round
	actions  []db.Action
}

// queueNights queues reading nights, with their rounds and actions when
// rounds is set: a few indexed statements per night, each keyed by the
// night's own id.
func queueNights(b *db.Batch, nights []int64, rounds bool) []nightHistory {
	out := make([]nightHistory, len(nights))
	for i, id := range nights {
		n := &out[i]
		b.TableGet(id, &n.row)
		b.AccountList(id, &n.accounts)
		b.PlayerList(id, &n.players)
		if rounds {
			b.RoundList(id, &n.rounds)
			b.ActionListByTable(id, &n.actions)
		}
	}
	return out
}

// nightIDs are the tables of a crew's nights.
func nightIDs(nights []db.CrewNight) []int64 {
	ids := make([]int64, len(nights))
	for i, n := range nights {
		ids[i] = n.Table
	}
	return ids
}

// nightOver refuses money other than the game's at a crew's night: the
// members' money is the crew's, where only the host or the member paid
// records a payment. A night's host (any member) could otherwise record a
// payment or cash-out for another member, and the roll-over would carry it
// to the crew.
func (w *writer) nightOver() error {
	if w.st.row.Crew == 0 {
		return nil
	}
	return fmt.Errorf("%w: at a crew's night only the game moves money: buy-ins, cash-outs and payments are recorded at crew %d",
		ErrForbidden, w.st.row.Crew)
}

// CrewView is a crew as a member (or its host, or its auditor) sees it:
// the crew as a table (its members), the running balances, and its nights.
type CrewView struct {
	Crew     TableView    `json:"crew"`
	Balances BalancesView `json:"balances"`
	Nights   []NightView  `json:"nights"`
}

// NightView is one of a crew's nights: its table, whether it is over, and
// whether its closing balances rolled into the crew. A member's phone
// claims its seat at an open night with the night's join code.
type NightView struct {
	Table    int64      `json:"table"`
	Name     string     `json:"name"`
	Status   string     `json:"status"`
	JoinCode string     `json:"joinCode,omitempty"`
	Rolled   bool       `json:"rolled"`
	Created  time.Time  `json:"createdAt"`
	ClosedAt *time.Time `json:"closedAt,omitempty"`
}

// Crew reads a crew: its members, running balances and nights.
func (s *Service) Crew(ctx context.Context, a Auth) (CrewView, error) {
	var nights []db.CrewNight
	var books []nightHistory
	var rolled []int64
	r, who, err := s.read(ctx, a, readPlan{accounts: true,
		history: func(b *db.Batch) { b.CrewNightList(a.TableID, &nights) },
		then: func(b *db.Batch, _ *reading) {
			books = queueNights(b, nightIDs(nights), false)
			b.JournalRolledNights(a.TableID, &rolled)
		}})
	if err != nil {
		return CrewView{}, err
	}
	if r.row.Game != db.GameCrew {
		return CrewView{}, fmt.Errorf("%w: table %d is not a crew", ErrNotFound, a.TableID)
	}
	st, err := newState(r.row, r.Players, r.Accounts)
	if err != nil {
		return CrewView{}, err
	}
	v := CrewView{Crew: st.view(who), Balances: balancesView(r.row, ledger.Sheet(r.row.Currency, r.Accounts, r.Players)),
		Nights: make([]NightView, 0, len(books))}
	for _, b := range books {
		n := b.row
		// A closed night where nobody won or lost has nothing to roll.
		nothing := n.Status == db.TableClosed && !slices.ContainsFunc(b.accounts, func(a db.Account) bool { return a.Balance != 0 })
		nv := NightView{Table: n.ID, Name: n.Name, Status: n.Status, Rolled: nothing || slices.Contains(rolled, n.ID),
			Created: n.CreatedAt, ClosedAt: n.ClosedAt}
		if who.Role != RoleAudit && n.Status == db.TableOpen {
			nv.JoinCode = n.JoinCode
		}
		v.Nights = append(v.Nights, nv)
	}
	return v, nil
}

// crew checks a crew's roll-overs against its nights: every closed night
// that left anyone owing or owed rolled into the crew exactly once, moving
// each member's closing balance as the night's books hold it, and no
// roll-over names a night the crew does not have.
func (au *audit) crew(journal []db.JournalEntry, nights []nightHistory) {
	rolled := map[int64][]db.JournalEntry{}
	for _, j := range journal {
		var m nightRolled
		if j.Kind == string(ledger.KindNight) && json.Unmarshal(j.Metadata, &m) == nil {
			rolled[m.Night] = append(rolled[m.Night], j)
		}
	}
	known := map[int64]bool{}
	for _, n := range nights {
		known[n.row.ID] = true
		if n.row.Crew != au.row.ID {
			au.problem("night %d is listed under the crew but was made for table %d", n.row.ID, n.row.Crew)
			au.rep.JournalOK = false
			continue
		}
		got := rolled[n.row.ID]
		if n.row.Status != db.TableClosed {
			if len(got) > 0 {
				au.problem("night %d rolled into the crew before it closed", n.row.ID)
				au.rep.JournalOK = false
			}
			continue
		}
		want, err := n.entry()
		switch {
		case err != nil:
			au.problem("%v", err)
		case len(got) > 1:
			au.problem("night %d rolled into the crew %d times", n.row.ID, len(got))
		case len(got) == 1:
			if err := want.Matches(got[0].Postings); err != nil {
				au.problem("night %d's roll-over differs from its closing balances: %v", n.row.ID, err)
			} else {
				continue
			}
		case len(want.Lines) > 0:
			au.problem("night %d closed, but its balances have not rolled into the crew: roll it (POST /v1/crews/%d/nights/%d/roll)",
				n.row.ID, au.row.ID, n.row.ID)
		default:
			continue // a night that moved nothing has nothing to roll
		}
		au.rep.JournalOK = false
	}
	for night := range rolled {
		if !known[night] {
			au.problem("a roll-over names night %d, which is not the crew's", night)
			au.rep.JournalOK = false
		}
	}
}

// membersOnly refuses a new name at a crew's night: each player of a night
// is a member, whose balance rolls into the crew.
func (st *tableState) membersOnly() error {
	if st.row.Crew == 0 {
		return nil
	}
	return fmt.Errorf("%w: a crew's night seats the crew's members only, and there is no unclaimed seat of that name: "+
		"join crew %d with its code first, then sit down at a night made with you", ErrInvalid, st.row.Crew)
}
