package api

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tally-dice/tally/ledger"
)

// TestJournalKindsAreTheLedgers: openapi.yaml's enum of a journal entry's
// kind is the movement kinds package ledger declares (ledger.Kinds).
func TestJournalKindsAreTheLedgers(t *testing.T) {
	spec, _ := loadSpec(t)
	entry := spec.Components.Schemas["JournalEntry"]
	if entry == nil || entry.Value.Properties["kind"] == nil {
		t.Fatal("openapi.yaml has no JournalEntry with a kind")
	}
	var got, want []string
	for _, v := range entry.Value.Properties["kind"].Value.Enum {
		got = append(got, fmt.Sprint(v))
	}
	for _, k := range ledger.Kinds {
		want = append(want, string(k))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("openapi.yaml's JournalEntry kinds are %v; ledger.Kinds are %v", got, want)
	}
}
