package table

import (
	"errors"
	"fmt"
	"testing"
)

// TestTheCallerEncodesTheAnswer: the service stores what the key's encoder
// made of the write's value, whatever the status, content type and bytes,
// and a replay gives exactly that back; a key sent without an encoder is
// refused before anything is written.
func TestTheCallerEncodesTheAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Players: []string{"Ann", "Bob"}})
	calls := 0
	key := Key{Key: "round-1", Hash: []byte("the start of round 1"), Encode: func(v any) (Answer, error) {
		calls++
		rd, ok := v.(RoundView)
		if !ok {
			return Answer{}, fmt.Errorf("a start of a round answered %T", v)
		}
		return Answer{Status: 299, ContentType: "text/x-round", Body: fmt.Appendf(nil, "round %d", rd.Number)}, nil
	}}
	_, err := f.svc.StartRound(f.ctx, f.host, Key{Key: key.Key, Hash: key.Hash}, StartRoundInput{})
	if err == nil {
		t.Fatal("a key without an encoder was taken")
	}
	first, err := f.svc.StartRound(f.ctx, f.host, key, StartRoundInput{})
	noErr(t, err)
	if _, ok := first.Value.(RoundView); !ok || first.Replayed {
		t.Fatalf("the start of round 1: %+v", first)
	}
	want := Answer{Status: 299, ContentType: "text/x-round", Body: []byte("round 1")}
	again, err := f.svc.StartRound(f.ctx, f.host, key, StartRoundInput{})
	noErr(t, err)
	for what, got := range map[string]Answer{"first": first.Answer, "replayed": again.Answer} {
		if got.Status != want.Status || got.ContentType != want.ContentType || string(got.Body) != string(want.Body) {
			t.Errorf("the %s answer: %d %s %q, want %d %s %q", what, got.Status, got.ContentType, got.Body, want.Status, want.ContentType, want.Body)
		}
	}
	if !again.Replayed || again.Value != nil || calls != 1 {
		t.Fatalf("the retry: replayed %t, value %v, encoded %d times", again.Replayed, again.Value, calls)
	}
	_, err = f.svc.StartRound(f.ctx, f.host, Key{Key: "round-2", Hash: []byte("x"), Encode: func(any) (Answer, error) {
		return Answer{}, errors.New("cannot say it")
	}}, StartRoundInput{})
	if err == nil {
		t.Fatal("a write whose answer cannot be encoded went through")
	}
}
