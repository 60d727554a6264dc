package ledger

import "testing"

func TestUnits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		amount   int64
		currency string
		want     string
	}{
		{1, "units", "1 unit"},
		{2, "units", "2 units"},
		{0, "units", "0 units"},
		{-1, "quarters", "-1 quarter"},
		{1, "gold pieces", "1 gold piece"},
		{1, "pennies", "1 penny"},
		{3, "pennies", "3 pennies"},
		{1, "boxes", "1 box"},
		{1, "glasses", "1 glass"},
		{1, "Chips", "1 Chip"},
		{1, "€", "1 €"},
		{1, "cash", "1 cash"},
		{1, "bonus", "1 bonus"},
		{1, "pence", "1 pence"},
	} {
		if got := Units(c.amount, c.currency); got != c.want {
			t.Errorf("Units(%d, %q) = %q, want %q", c.amount, c.currency, got, c.want)
		}
	}
}
