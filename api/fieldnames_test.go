package api

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tally-dice/tally/table"
)

type namesInner struct {
	Dice []int `json:"dice"`
}

type namesBody struct {
	Player int          `json:"player"`
	Rolls  []namesInner `json:"rolls"`
	Note   string       `json:"note,omitempty"`
}

// namesAmbiguous has two names that differ only in case, in different
// structs: a key spelled as one may have been matched to the other.
type namesAmbiguous struct {
	Dice  int        `json:"Dice"`
	Inner namesInner `json:"inner"`
}

// TestFieldNamesAreExact checks that the names of a body are judged the
// same whether the quick look at its keys passes it or the walk through
// the decoded value judges it: exact names pass, any other spelling is
// refused, escapes and strings that only look like keys included.
func TestFieldNamesAreExact(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		typ        any
		refused    string // what the refusal names; "" for none
	}{
		{"exact", `{"player": 2, "rolls": [{"dice": [6, 5, 4]}]}`, &namesBody{}, ""},
		{"top-level case", `{"PLAYER": 2}`, &namesBody{}, `"PLAYER"`},
		{"nested case", `{"rolls": [{"Dice": [6]}]}`, &namesBody{}, `"Dice"`},
		{"a value that looks like a name", `{"note": "Player", "player": 1}`, &namesBody{}, ""},
		{"a value with a colon after it in a string", `{"note": "\"PLAYER\": 1"}`, &namesBody{}, ""},
		{"an escaped exact name", `{"pl\u0061yer": 2}`, &namesBody{}, ""},
		{"an escaped name in the wrong case", `{"PL\u0041YER": 2}`, &namesBody{}, `"PLAYER"`},
		{"space before the colon", `{"rolls" : [{"dice"  :[1]}], "Note" : "x"}`, &namesBody{}, `"Note"`},
		{"names that differ only in case, exact", `{"Dice": 1, "inner": {"dice": [1]}}`, &namesAmbiguous{}, ""},
		{"names that differ only in case, swapped", `{"Dice": 1, "inner": {"Dice": [1]}}`, &namesAmbiguous{}, `"Dice"`},
	}
	for _, c := range cases {
		err := decodeStrict([]byte(c.body), c.typ)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s: %s refused: %v", c.name, c.body, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s: %s: %v, want a refusal naming %s", c.name, c.body, err, c.refused)
		}
	}
	if exactNames(reflect.TypeOf(&namesAmbiguous{})) != nil {
		t.Error("a type with two names that differ only in case takes the quick look")
	}
	if exactNames(reflect.TypeOf(&namesBody{})) == nil {
		t.Error("a type with distinct names does not take the quick look: the test would prove nothing of it")
	}
}

// BenchmarkDecodeTurn decodes the body of a whole turn, as every turn's
// request is decoded.
func BenchmarkDecodeTurn(b *testing.B) {
	body := []byte(`{"player": 3, "rolls": [{"dice": [6, 2, 3, 1, 1]}, {"dice": [5, 4, 1], "rethrow": [1, 1]}, {"dice": [6, 6]}], "stand": true, "seen": 4}`)
	b.ReportAllocs()
	for b.Loop() {
		var in table.TurnInput
		if err := decodeStrict(body, &in); err != nil {
			b.Fatal(err)
		}
	}
}
