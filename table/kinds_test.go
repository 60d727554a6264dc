package table

import (
	"testing"

	"github.com/tally-dice/tally/ledger"
)

// TestEveryKindHasItsCorrection: ReverseEntry says of every movement kind
// package ledger declares how it is reversed (reversalOf names each).
func TestEveryKindHasItsCorrection(t *testing.T) {
	for _, k := range ledger.Kinds {
		if reversalOf(k) < 0 {
			t.Errorf("ReverseEntry does not say how a %s is reversed", k)
		}
	}
}
