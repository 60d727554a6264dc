package chain

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tally-dice/tally/game"
)

func TestCanonicalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{`{ "a" : [ 1 , 2 ] }`, `{"a":[1,2]}`},
		{`{"n":1E2,"m":-0,"k":7.0}`, `{"k":7,"m":0,"n":100}`},
		{`{"big":123456789012345678901234567890}`, `{"big":123456789012345678901234567890}`},
		{`{"s":"<Ann & Bob>","u":"é\u00e9"}`, `{"s":"<Ann & Bob>","u":"éé"}`},
		{`{"z":{"y":null,"x":true}}`, `{"z":{"x":true,"y":null}}`},
		{`"plain"`, `"plain"`},
	}
	for _, tc := range cases {
		got, err := Canonicalize([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("Canonicalize(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{`{"x":1.5}`, `[0.1]`, `{"x":1e-3}`} {
		if _, err := Canonicalize([]byte(bad)); !errors.Is(err, ErrNonInteger) {
			t.Errorf("Canonicalize(%s): err = %v, want ErrNonInteger", bad, err)
		}
	}
}

// reference is the slow way to canonical JSON: encoding/json without HTML
// escaping, then re-encoded with sorted keys.
func reference(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	out, err := Canonicalize(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type embedded struct {
	Inner  int    `json:"inner"`
	Shared string `json:"zeta,omitempty"`
}

type sample struct {
	embedded
	Name    string            `json:"name"`
	Skip    int               `json:"-"`
	Empty   []int             `json:"empty,omitempty"`
	Nil     []int             `json:"nil"`
	Ptr     *int              `json:"ptr"`
	Any     any               `json:"any"`
	Raw     json.RawMessage   `json:"raw,omitempty"`
	Map     map[string]int64  `json:"map"`
	IntKeys map[int]string    `json:"intKeys,omitempty"`
	Bytes   []byte            `json:"bytes"`
	When    time.Time         `json:"when"`
	Players []game.PlayerID   `json:"players"`
	Nested  map[string][]bool `json:"nested"`
	Whole   float64           `json:"whole"`
	NoTag   uint8
	private int
}

func TestEncodeMatchesEncodingJSONSorted(t *testing.T) {
	seven := 7
	values := []any{
		nil, true, int64(-42), "a \"quoted\" <tag> & \u2028 line\nbreak\x01 é", []any{1, "x", nil, map[string]any{"b": 1, "a": []int{}}},
		map[string]any{"é": 1, "e": 2, "E": 3, "": 4},
		sample{embedded: embedded{Inner: 1, Shared: "s"}, Name: "Ann <3", Skip: 9, Ptr: &seven, Any: map[string]any{"y": 1, "x": 2},
			Raw: json.RawMessage(`{"b":1, "a":2}`), Map: map[string]int64{"b": 2, "a": 1}, IntKeys: map[int]string{10: "ten", 9: "nine"},
			Bytes: []byte("hi"), When: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC), Players: []game.PlayerID{3, 1},
			Nested: map[string][]bool{"k": {true, false}}, Whole: 12, NoTag: 4, private: 1},
		sample{},
		game.RoundSetup{Players: []game.PlayerID{1, 2, 3}, CarriedPot: 4, Ante: true, Declarer: 2, Declared: 11},
		game.Action{Player: 5, Kind: game.ActionRoll, Roll: &game.Roll{Dice: []int{6, 5, 4, 3, 3}, Rethrow: []int{3}, Path: "6-5-4"}},
		game.Result{Kind: game.ResultSplit, Winners: []game.PlayerID{1, 2}, Scores: []game.PlayerScore{{Player: 1, Qualified: true, Score: 9}},
			Settlement: game.Settlement{PotBefore: 9, Payouts: []game.Amount{{Player: 1, Amount: 4}}, CarryOver: 1, Remainder: 1}},
		game.GameState{Seats: []game.PlayerID{1, 2}, Totals: []int64{0, 3}, Pot: 4, Ante: true},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		values = append(values, randomValue(rng, 4))
	}
	for _, v := range values {
		got, err := Encode(v)
		if err != nil {
			t.Fatalf("Encode(%#v): %v", v, err)
		}
		if want := reference(t, v); !bytes.Equal(got, want) {
			t.Fatalf("Encode(%#v)\n got %s\nwant %s", v, got, want)
		}
	}
}

// randomValue is a random JSON-like value of maps, lists, strings, whole
// numbers, booleans and nulls.
func randomValue(rng *rand.Rand, depth int) any {
	switch k := rng.IntN(7); {
	case depth == 0 || k == 0:
		return rng.Int64N(1<<40) - 1<<39
	case k == 1:
		letters := []rune("aAzZ09 \"\\<>&é\u2028\n\t\x00")
		r := make([]rune, rng.IntN(6))
		for i := range r {
			r[i] = letters[rng.IntN(len(letters))]
		}
		return string(r)
	case k == 2:
		return rng.IntN(2) == 0
	case k == 3:
		return nil
	case k == 4:
		out := make([]any, rng.IntN(4))
		for i := range out {
			out[i] = randomValue(rng, depth-1)
		}
		return out
	}
	out := map[string]any{}
	for range rng.IntN(5) {
		key := string(rune('a' + rng.IntN(26)))
		out[key] = randomValue(rng, depth-1)
	}
	return out
}

func TestEncodeRefusesFractions(t *testing.T) {
	for _, v := range []any{1.5, map[string]any{"x": 0.25}, []float64{3, 0.1}} {
		if _, err := Encode(v); !errors.Is(err, ErrNonInteger) {
			t.Errorf("Encode(%v): err = %v, want ErrNonInteger", v, err)
		}
	}
}

func TestEventHashCoversEveryField(t *testing.T) {
	head := Start()
	at := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	base, err := head.Append(1, "ledger.ante", map[string]int{"a": 1}, at)
	if err != nil {
		t.Fatal(err)
	}
	if base.Seq != 1 || !bytes.Equal(base.PrevHash, Genesis) || head.Seq != 1 || !bytes.Equal(head.Hash, base.Hash) {
		t.Fatalf("first event %+v, head %+v", base, head)
	}
	if h, err := Hash(base); err != nil || !bytes.Equal(h, base.Hash) {
		t.Fatalf("recomputed hash %x, %v; stored %x", h, err, base.Hash)
	}
	// The same event as jsonb would return it, in another time zone.
	same := base
	same.Payload = []byte(`{"a": 1}`)
	same.CreatedAt = base.CreatedAt.In(time.FixedZone("X", 3600))
	if h, _ := Hash(same); !bytes.Equal(h, base.Hash) {
		t.Error("hash changed with payload spacing or time zone")
	}
	changes := map[string]func(e *Event){
		"table":     func(e *Event) { e.TableID = 9 },
		"seq":       func(e *Event) { e.Seq = 3 },
		"kind":      func(e *Event) { e.Kind = "ledger.payout" },
		"payload":   func(e *Event) { e.Payload = []byte(`{"a":2}`) },
		"timestamp": func(e *Event) { e.CreatedAt = e.CreatedAt.Add(time.Microsecond) },
		"prev_hash": func(e *Event) { e.PrevHash = make([]byte, 32); e.PrevHash[0] = 1 },
	}
	for name, change := range changes {
		e := base
		change(&e)
		if h, _ := Hash(e); bytes.Equal(h, base.Hash) {
			t.Errorf("changing %s does not change the hash", name)
		}
	}
}

func TestVerifyFindsTheFirstBreak(t *testing.T) {
	head := Start()
	var events []Event
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range 5 {
		e, err := head.Append(7, "step", map[string]any{"i": i, "name": "Ann <3"}, at.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	if r := Verify(events); !r.OK || r.Events != 5 || !bytes.Equal(r.Head, head.Hash) {
		t.Fatalf("intact chain: %+v", r)
	}
	tamper := map[string]struct {
		change func([]Event) []Event
		at     int64
	}{
		"payload edited":    {func(es []Event) []Event { es[2].Payload = []byte(`{"i":2,"name":"Bob"}`); return es }, 3},
		"event removed":     {func(es []Event) []Event { return append(es[:1], es[2:]...) }, 3},
		"last event gone":   {func(es []Event) []Event { return es[:4] }, 0},
		"events swapped":    {func(es []Event) []Event { es[1], es[2] = es[2], es[1]; return es }, 3},
		"hash rewritten":    {func(es []Event) []Event { es[0].Hash = make([]byte, 32); return es }, 1},
		"timestamp changed": {func(es []Event) []Event { es[4].CreatedAt = es[4].CreatedAt.Add(time.Second); return es }, 5},
	}
	for name, tc := range tamper {
		es := tc.change(append([]Event(nil), events...))
		r := Verify(es)
		if tc.at == 0 {
			// Losing the end of the chain is invisible to the chain alone:
			// the head kept elsewhere (the table row) is what tells.
			if !r.OK || bytes.Equal(r.Head, head.Hash) {
				t.Errorf("%s: %+v", name, r)
			}
			continue
		}
		if r.OK || r.BrokenAt != tc.at {
			t.Errorf("%s: report %+v, want a break at %d", name, r, tc.at)
		}
	}
}

// FuzzCanonicalize checks that whatever Canonicalize accepts it writes in a
// form it leaves alone, and that a fraction is never let through.
func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1,2,{"d":null,"c":"x"}]}`, `1E2`, `"\u2028<>"`, `[0.5]`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		canon, err := Canonicalize(raw)
		if err != nil {
			return
		}
		again, err := Canonicalize(canon)
		if err != nil || !bytes.Equal(again, canon) {
			t.Fatalf("Canonicalize(%q) = %q, which canonicalizes to %q, %v", raw, canon, again, err)
		}
	})
}
