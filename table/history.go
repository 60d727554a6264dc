package table

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
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
// standing that are still under the cup, and the throws taken back that
// were under the cup when they were recorded (taken back, they are never
// revealed while the round is played).
func (st *tableState) sealedEvents(who Principal) (map[int64]db.Action, error) {
	cur := st.current()
	if cur == nil {
		return nil, nil
	}
	viewer := who.viewer()
	r, err := game.NewRound(st.rules(), cur.row.Setup)
	if err != nil {
		return nil, err
	}
	sealed := map[int64]db.Action{}
	var standing []db.Action
	for _, a := range cur.actions {
		if a.Action.Kind == actionVoid {
			standing = standing[:max(len(standing)-1, 0)]
			if r, err = replayRound(st.rules(), cur.row.Setup, standing); err != nil {
				return nil, err
			}
			continue
		}
		if err := r.Apply(a.Action); err != nil {
			return nil, fmt.Errorf("%w: round %d's action %d: %w", ErrHistoryBroken, cur.row.Number, a.Seq, err)
		}
		standing = append(standing, a)
		if a.Action.Kind == game.ActionRoll && lastRollSealed(r.View(viewer), a.Action.Player) {
			if a.EventSeq == 0 {
				return nil, fmt.Errorf("%w: round %d's action %d has no audit event", ErrHistoryBroken, cur.row.Number, a.Seq)
			}
			sealed[a.EventSeq] = a
		}
	}
	// A throw standing is shown once the round reveals it (cups lifted).
	view := cur.round.View(viewer)
	rolls := map[game.PlayerID]int{}
	for _, a := range standing {
		if a.Action.Kind != game.ActionRoll {
			continue
		}
		k := rolls[a.Action.Player]
		rolls[a.Action.Player]++
		if !rollSealed(view, a.Action.Player, k) {
			delete(sealed, a.EventSeq)
		}
	}
	return sealed, nil
}

// replayRound is a round rebuilt from its setup and the given actions.
func replayRound(rs game.Ruleset, setup game.RoundSetup, actions []db.Action) (*game.Round, error) {
	r, err := game.NewRound(rs, setup)
	if err != nil {
		return nil, err
	}
	for _, a := range actions {
		if err := r.Apply(a.Action); err != nil {
			return nil, fmt.Errorf("%w: action %d: %w", ErrHistoryBroken, a.Seq, err)
		}
	}
	return r, nil
}

// lastRollSealed says whether player's latest throw is under the cup in view.
func lastRollSealed(view game.RoundState, player game.PlayerID) bool {
	for _, ps := range view.Players {
		if ps.Player == player {
			return len(ps.Outcome.Rolls) > 0 && ps.Outcome.Rolls[len(ps.Outcome.Rolls)-1].Sealed
		}
	}
	return false
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
