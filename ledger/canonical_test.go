package ledger

import (
	"errors"
	"testing"
	"time"
)

func TestCanonicalJSON(t *testing.T) {
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
		got, err := canonicalJSON([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("canonicalJSON(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{`{"x":1.5}`, `[0.1]`, `{"x":1e-3}`} {
		if _, err := canonicalJSON([]byte(bad)); !errors.Is(err, ErrNonInteger) {
			t.Errorf("canonicalJSON(%s): err = %v, want ErrNonInteger", bad, err)
		}
	}
}

func TestEventHashCoversEveryField(t *testing.T) {
	base := Event{TableID: 1, Seq: 2, Kind: "ledger.ante", Payload: []byte(`{"a":1}`),
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC), PrevHash: genesis}
	h0, err := eventHash(base)
	if err != nil {
		t.Fatal(err)
	}
	// The same event as jsonb would return it, in another time zone.
	same := base
	same.Payload = []byte(`{"a": 1}`)
	same.CreatedAt = base.CreatedAt.In(time.FixedZone("X", 3600))
	if h, _ := eventHash(same); string(h) != string(h0) {
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
		if h, _ := eventHash(e); string(h) == string(h0) {
			t.Errorf("changing %s does not change the hash", name)
		}
	}
}
