package table

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// EventView is one audit-log event as the caller may read it.
type EventView struct {
	Seq       int64           `json:"seq"`
	Kind      string          `json:"kind"`
	Payload   json.RawMessage `json:"payload"`
	CreatedAt time.Time       `json:"createdAt"`
	PrevHash  string          `json:"prevHash"`
	Hash      string          `json:"hash"`
}

// EventPage is one page of the event log; Next is the cursor of the next
// page, empty on the last.
type EventPage struct {
	Events []EventView `json:"events"`
	Next   string      `json:"next,omitempty"`
}

// Events reads at most limit events after seq after; with families, only
// the events of those families (the part of a kind before its first dot:
// "player", "ledger", "host"), which is how a phone lists who joined and
// what money moved without reading every throw. The cursor is the last
// sequence number seen, so a page never shifts when new events arrive.
//
// A closed throw still sealed from the caller shows only its round and
// sequence number (and sealed: true) until the round reveals it, so the
// log cannot unseal what GET round hides. Its hash is shown: the event
// carries a random nonce (roundAction), so the hash cannot be matched
// against the few possible faces. A sealed throw recorded before nonces
// existed (in a round open across the upgrade to migration 4), or one
// before this page, hides the hashes from it on, as before.
func (s *Service) Events(ctx context.Context, a Auth, after int64, limit int, families []string) (EventPage, error) {
	var events []chain.Event
	r, who, err := s.read(ctx, a, readPlan{round: true, queue: func(b *db.Batch) {
		// One more than a page says whether there is a next page.
		b.EventPage(a.TableID, after, limit+1, families, &events)
	}})
	if err != nil {
		return EventPage{}, err
	}
	st, err := r.state()
	if err != nil {
		return EventPage{}, err
	}
	sealed, err := st.sealedEvents(who)
	if err != nil {
		return EventPage{}, err
	}
	inPage := make(map[int64][]byte, len(events))
	for _, e := range events {
		inPage[e.Seq] = e.Payload
	}
	unhashed := int64(math.MaxInt64)
	for seq := range sealed {
		if payload, ok := inPage[seq]; !ok || !hasNonce(payload) {
			unhashed = min(unhashed, seq)
		}
	}
	page := EventPage{Events: make([]EventView, 0, min(len(events), limit))}
	for i, e := range events {
		if i == limit {
			page.Next = strconv.FormatInt(events[i-1].Seq, 10)
			break
		}
		v := EventView{Seq: e.Seq, Kind: e.Kind, Payload: e.Payload, CreatedAt: e.CreatedAt}
		if ref, ok := sealed[e.Seq]; ok {
			v.Payload, _ = json.Marshal(sealedAction{Round: ref.Round, Seq: ref.Seq, Sealed: true})
		}
		if e.Seq < unhashed {
			v.PrevHash, v.Hash = hex.EncodeToString(e.PrevHash), hex.EncodeToString(e.Hash)
		}
		page.Events = append(page.Events, v)
	}
	return page, nil
}

// sealedAction is what the log shows of a sealed throw.
type sealedAction struct {
	Round  int  `json:"round"`
	Seq    int  `json:"seq"`
	Sealed bool `json:"sealed"`
}

// sealedEvents are the events of the round being played that record throws
// the round still hides from who, by event sequence number: the throws
// standing that are still under the cup, and, in a round with throws taken
// back, those that were under the cup when they were recorded (taken back,
// they are never revealed while the round is played).
func (st *tableState) sealedEvents(who Principal) (map[int64]db.Action, error) {
	cur := st.dice().current()
	if cur == nil {
		return nil, nil
	}
	viewer := who.viewer()
	sealed := map[int64]db.Action{}
	seal := func(a db.Action) error {
		if a.EventSeq == 0 {
			return fmt.Errorf("%w: round %d's action %d has no audit event", ErrHistoryBroken, cur.row.Number, a.Seq)
		}
		sealed[a.EventSeq] = a
		return nil
	}
	// The throws standing, as the round shows them now.
	standing, err := standingActions(cur.actions)
	if err != nil {
		return nil, fmt.Errorf("%w: round %d: %w", ErrHistoryBroken, cur.row.Number, err)
	}
	view := cur.round.View(viewer)
	rolls := map[game.PlayerID]int{}
	for _, a := range standing {
		if a.Action.Kind != game.ActionRoll {
			continue
		}
		k := rolls[a.Action.Player]
		rolls[a.Action.Player]++
		if rollSealed(view, a.Action.Player, k) {
			if err := seal(a); err != nil {
				return nil, err
			}
		}
	}
	if len(standing) == len(cur.actions) {
		return sealed, nil
	}
	// A throw taken back is judged as it was when recorded: the round
	// replayed up to it.
	var before []db.Action
	for _, a := range cur.actions {
		if a.Action.Kind == actionVoid {
			before = before[:len(before)-1] // standingActions checked it
			continue
		}
		before = append(before, a)
		if a.Action.Kind != game.ActionRoll || slices.ContainsFunc(standing, func(s db.Action) bool { return s.Seq == a.Seq }) {
			continue
		}
		r, err := replayRound(st.rules(), cur.row.Setup, before)
		if err != nil {
			return nil, fmt.Errorf("%w: round %d: %w", ErrHistoryBroken, cur.row.Number, err)
		}
		n := 0
		for _, b := range before {
			if b.Action.Kind == game.ActionRoll && b.Action.Player == a.Action.Player {
				n++
			}
		}
		if rollSealed(r.View(viewer), a.Action.Player, n-1) {
			if err := seal(a); err != nil {
				return nil, err
			}
		}
	}
	return sealed, nil
}

// rollSealed says whether player's throw k is under the cup in view.
func rollSealed(view game.RoundState, player game.PlayerID, k int) bool {
	for _, ps := range view.Players {
		if ps.Player == player {
			return k < len(ps.Outcome.Rolls) && ps.Outcome.Rolls[k].Sealed
		}
	}
	return false
}

// hasNonce reports whether a round.action payload carries a nonce.
func hasNonce(payload []byte) bool {
	var a roundAction
	return json.Unmarshal(payload, &a) == nil && a.Nonce != ""
}
