package ledger

import (
	"fmt"
	"regexp"
)

// Units writes an amount in a table's unit the way people say it: "4
// quarters", "1 quarter", "-1 chip". A table's unit is a label its host
// typed, plural as tables name it ("units", "gold pieces"); one of it drops
// the plural ending, and a label without one ("cash", "€") stays as it is.
// The phone app's dom.js money() says amounts the same way.
func Units(amount int64, currency string) string {
	if amount == 1 || amount == -1 {
		currency = singular(currency)
	}
	return fmt.Sprintf("%d %s", amount, currency)
}

// The plural endings singular undoes: "pennies", "boxes" and "glasses", and
// a plain s after anything but another s or a u ("bonus" is not plural).
var (
	pluralIes = regexp.MustCompile(`(?i)[^aeiou]ies$`)
	pluralEs  = regexp.MustCompile(`(?i)(ch|sh|x|ss)es$`)
	pluralS   = regexp.MustCompile(`(?i)[^s'u]s$`)
)

// singular is one of a plural unit label.
func singular(label string) string {
	switch {
	case pluralIes.MatchString(label):
		return label[:len(label)-3] + "y"
	case pluralEs.MatchString(label):
		return label[:len(label)-2]
	case pluralS.MatchString(label):
		return label[:len(label)-1]
	}
	return label
}
