package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// Attacks on sealed closed rolls: every
// channel other than GET round through which another player might learn the
// dice under a cup before the round reveals them.

// listedEvent is one event as GET events shows it, with everything an
// attacker needs to recompute its hash.
type listedEvent struct {
	Seq       int64           `json:"seq"`
	Kind      string          `json:"kind"`
	Payload   json.RawMessage `json:"payload"`
	CreatedAt time.Time       `json:"createdAt"`
	PrevHash  string          `json:"prevHash"`
	Hash      string          `json:"hash"`
}

// canonicalRecordHash recomputes an event's hash as the ledger documents it:
// SHA-256(prev_hash || canonical {"created_at","kind","payload","seq","table"}).
// Go's json.Marshal of maps sorts keys and adds no whitespace, which is the
// canonical form for the integer-only payloads of round actions.
func canonicalRecordHash(t *testing.T, tableID int64, e listedEvent, payload any, prev []byte) []byte {
	t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&decoded); err != nil {
		t.Fatal(err)
	}
	record := map[string]any{"created_at": e.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000Z"),
		"kind": e.Kind, "payload": decoded, "seq": e.Seq, "table": tableID}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(record); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	h.Write(prev)
	h.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return h.Sum(nil)
}

// TestSealedRollNotRecoverableFromEventHashes is the attack: a closed
// cargo re-roll of two dice has only 36 possible faces, and the event log
// showed the hash of the sealed event (and of every later event, which
// chains to it). Recomputing the hash for each candidate pair told another
// player the dice under the cup. Since migration 4 each throw's event
// carries a random nonce the hash covers, which the sealed view withholds:
// the hashes are shown, and trying every pair no longer finds the dice.
func TestSealedRollNotRecoverableFromEventHashes(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"}})
	bob := s.id("Bob")
	bobTok, cyTok := s.join("Bob"), s.join("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	s.act(bobTok, 1, roll(6, 5, 4, 1, 2))
	s.act(bobTok, 1, roll(5, 3)) // under the cup

	for who, tok := range map[string]string{"Cy": cyTok, "host": s.tb.Host, "audit": s.tb.Audit} {
		var page struct{ Events []listedEvent }
		s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: tok}, &page)
		var recovered [][2]int
		for i, e := range page.Events {
			var ref struct {
				Round  int  `json:"round"`
				Seq    int  `json:"seq"`
				Sealed bool `json:"sealed"`
			}
			if e.Kind != "round.action" || json.Unmarshal(e.Payload, &ref) != nil || !ref.Sealed {
				continue
			}
			// The previous event's hash is the start of the chain link.
			if i == 0 {
				continue
			}
			prev, _ := hex.DecodeString(page.Events[i-1].Hash)
			// The hash to match: the sealed event's own, or failing that
			// the next event's, which chains to it.
			target, next := e.Hash, (*listedEvent)(nil)
			if target == "" && i+1 < len(page.Events) {
				next = &page.Events[i+1]
			}
			for a := 1; a <= 6; a++ {
				for b := 1; b <= 6; b++ {
					payload := map[string]any{"round": ref.Round, "seq": ref.Seq, "action": map[string]any{
						"player": bob, "kind": "roll", "roll": map[string]any{"dice": []int{a, b}}}}
					if len(prev) == 0 {
						continue
					}
					h := canonicalRecordHash(t, s.tb.ID, e, payload, prev)
					if target != "" && hex.EncodeToString(h) == target {
						recovered = append(recovered, [2]int{a, b})
					}
					if next != nil && next.Hash != "" {
						var np any
						_ = json.Unmarshal(next.Payload, &np)
						if hex.EncodeToString(canonicalRecordHash(t, s.tb.ID, *next, np, h)) == next.Hash {
							recovered = append(recovered, [2]int{a, b})
						}
					}
				}
			}
		}
		if len(recovered) > 0 {
			t.Errorf("%s recovers Bob's sealed dice %v from the event hashes", who, recovered)
		}
	}

	// Since migration 4 a throw's event carries a random nonce, so its hash
	// (which every phone now sees as the chain's head) is shown, and the
	// search above, which knows no nonce, finds nothing.
	var all, tail struct{ Events []listedEvent }
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: cyTok}, &all)
	last := all.Events[len(all.Events)-1]
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?after=%d", last.Seq-1), token: cyTok}, &tail)
	if len(tail.Events) != 1 || tail.Events[0].Hash == "" || tail.Events[0].Hash != last.Hash {
		t.Fatalf("the sealed throw's page: %+v, want its hash shown", tail.Events)
	}

	// Once the round is over, every hash is shown again and chains.
	s.act(bobTok, 1, map[string]any{"kind": "stand"})
	s.turn(1, "Cy", []int{6, 5, 4, 1, 1})
	var page struct{ Events []listedEvent }
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: cyTok}, &page)
	for i, e := range page.Events {
		if e.Hash == "" || (i > 0 && e.PrevHash != page.Events[i-1].Hash) {
			t.Fatalf("after the round, event %d has hash %q and prevHash %q", e.Seq, e.Hash, e.PrevHash)
		}
	}
	s.auditOK()
}
