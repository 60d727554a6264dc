package table

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The limits of the text a table keeps, as openapi.yaml states them.
const (
	maxNameRunes     = 40 // a player's name
	maxTableRunes    = 80 // a table's name
	maxCurrencyRunes = 24 // a currency label
)

// joinCodeLength is how many characters of joinAlphabet a new table's join
// code has. The code is all that stands between a stranger and a seat, so
// it must survive a year of guessing at the API's global budget on join-code
// attempts (api.DefaultJoinLimits: G = 50 a second) against a generous bound
// of T = 100,000 open tables with a chance under one in a million:
//
//	P ≈ G · 3.156e7 s · T / 31^L = 50 · 3.156e7 · 1e5 / 31^14
//	  = 1.58e14 / 7.57e20 ≈ 2.1e-7
//
// 13 characters (31^13 = 2.44e19) would give 6.5e-6; 14 is the shortest
// length under 1e-6, and stays so for a global budget of up to 240 a second.
// Phones show it in groups of four (ABCD-EFGH-JKMN-PQ).
const joinCodeLength = 14

// oldJoinCodeLength is the length of the codes of tables made before codes
// grew to joinCodeLength; those tables keep them, and they still open them.
const oldJoinCodeLength = 6

// cleanText trims s and checks it is at most max characters of printable
// text. Control characters are refused because PostgreSQL cannot store NUL
// and a newline or escape sequence in a name garbles every phone and the
// CSV statement; bidirectional overrides are refused because they let a
// name display as another player's ("\u202eboB" shows as "Bob").
func cleanText(s, what string, max int) (string, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalid, what)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return "", fmt.Errorf("%w: %s has %d characters; the limit is %d", ErrInvalid, what, n, max)
	}
	for _, r := range s {
		if unicode.IsControl(r) || isBidiControl(r) {
			return "", fmt.Errorf("%w: %s holds the control character %U; use letters, digits, spaces and punctuation", ErrInvalid, what, r)
		}
	}
	return s, nil
}

// isBidiControl reports the invisible characters that reorder text.
func isBidiControl(r rune) bool {
	return r == '\u061c' || r == '\u200e' || r == '\u200f' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// cleanName trims a player's name and checks it: 1 to 40 printable
// characters.
func cleanName(name string) (string, error) {
	name, err := cleanText(name, "a player's name", maxNameRunes)
	if err != nil {
		return "", err
	}
	if name == "" {
		return "", fmt.Errorf("%w: a player's name must have 1 to %d characters", ErrInvalid, maxNameRunes)
	}
	return name, nil
}

// joinCode normalizes a join code as typed: any case, with spaces or any
// punctuation between the characters ("abcd-efgh jkmn.pq"), and reports
// whether it can be one at all (joinCodeLength characters of joinAlphabet,
// or oldJoinCodeLength for an older table), so that text which cannot be a
// code (too long, a NUL) is answered without asking the database.
func joinCode(code string) (string, bool) {
	if len(code) > maxJoinCodeInput {
		return "", false
	}
	var b strings.Builder
	for _, r := range code {
		if unicode.IsSpace(r) || unicode.IsPunct(r) {
			continue
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	code = b.String()
	if len(code) != joinCodeLength && len(code) != oldJoinCodeLength {
		return code, false
	}
	for i := 0; i < len(code); i++ {
		if strings.IndexByte(joinAlphabet, code[i]) < 0 {
			return code, false
		}
	}
	return code, true
}

// maxJoinCodeInput bounds the text joinCode reads: a code with a separator
// between every two characters fits with room to spare.
const maxJoinCodeInput = 64

// errNoJoinCode is the answer to a code no open table has. The code is
// quoted only when it has the shape of one, so a megabyte of text is not
// sent back.
func errNoJoinCode(code string) error {
	if norm, ok := joinCode(code); ok {
		return fmt.Errorf("%w: no open table has join code %q", ErrNotFound, norm)
	}
	return fmt.Errorf("%w: no open table has that join code (a join code is %d letters and digits, such as ABCD-EFGH-JKMN-PQ; "+
		"tables made before codes grew have %d)", ErrNotFound, joinCodeLength, oldJoinCodeLength)
}
