package table

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestJoinCodeNormalizes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typed, want string
		ok          bool
	}{
		{"ABCDEFGHJKMNPQ", "ABCDEFGHJKMNPQ", true},
		{"abcd-efgh-jkmn-pq", "ABCDEFGHJKMNPQ", true},
		{" Abcd efgh\tjkmn.pq \n", "ABCDEFGHJKMNPQ", true},
		{"ABCD–EFGH—JKMN_PQ", "ABCDEFGHJKMNPQ", true}, // dashes a phone keyboard makes
		{"abc234", "ABC234", true},                    // an older table's code
		{"ABC-234", "ABC234", true},
		{"ABCDEFGHJKMNP", "ABCDEFGHJKMNP", false},     // 13
		{"ABCDEFGHJKMNPQR", "ABCDEFGHJKMNPQR", false}, // 15
		{"ABCDEFGHJKMNP0", "ABCDEFGHJKMNP0", false},   // 0 is not in the alphabet
		{"ABCDEFGHJKMNPO", "ABCDEFGHJKMNPO", false},   // nor O
		{"ABCDEFGHJKMNPI", "ABCDEFGHJKMNPI", false},   // nor I
		{"ABCDEFGHJKMNPL", "ABCDEFGHJKMNPL", false},   // nor L
		{"AB\x00CD", "AB\x00CD", false},
		{"", "", false},
		{strings.Repeat("A", 10000), "", false},
	} {
		got, ok := joinCode(tc.typed)
		if got != tc.want || ok != tc.ok {
			t.Errorf("joinCode(%q) = %q, %v; want %q, %v", tc.typed, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzJoinCode: whatever is typed, a code reported well-formed is one of
// the two lengths in the alphabet, normalizing is idempotent, and the
// refusal never quotes more than a code's worth of text.
func FuzzJoinCode(f *testing.F) {
	for _, s := range []string{"ABCD-EFGH-JKMN-PQ", "abc234", "AB\x00CD", "ǅ", "ß-ẞ", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, typed string) {
		norm, ok := joinCode(typed)
		if ok {
			if len(norm) != joinCodeLength && len(norm) != oldJoinCodeLength {
				t.Fatalf("%q normalized to %q of length %d", typed, norm, len(norm))
			}
			for _, r := range norm {
				if !strings.ContainsRune(joinAlphabet, r) {
					t.Fatalf("%q normalized to %q, holding %q", typed, norm, r)
				}
			}
			if again, ok := joinCode(norm); !ok || again != norm {
				t.Fatalf("%q normalizes to %q, which normalizes to %q, %v", typed, norm, again, ok)
			}
		}
		err := errNoJoinCode(typed)
		if !errors.Is(err, ErrNotFound) || !utf8.ValidString(err.Error()) || len(err.Error()) > 200 {
			t.Fatalf("errNoJoinCode(%q) = %v", typed, err)
		}
	})
}

// TestNewJoinCodes: new codes are joinCodeLength characters of the
// alphabet, every character of it turns up, and no two of a thousand match.
func TestNewJoinCodes(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	used := map[rune]bool{}
	for range 1000 {
		code := newJoinCode()
		if norm, ok := joinCode(code); !ok || norm != code || len(code) != joinCodeLength {
			t.Fatalf("newJoinCode() = %q is not a code", code)
		}
		if seen[code] {
			t.Fatalf("%q came up twice", code)
		}
		seen[code] = true
		for _, r := range code {
			used[r] = true
		}
	}
	// 14,000 characters: the chance that one of 31 never turns up is
	// 31·(30/31)^14000, below 1e-190.
	if len(used) != len(joinAlphabet) {
		t.Fatalf("only %d of the %d characters turn up", len(used), len(joinAlphabet))
	}
}

// TestOlderTablesKeepTheirCodes: a table made when codes had six characters
// is still found by its code, however it is typed, and joined with it.
func TestOlderTablesKeepTheirCodes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Name: "Old", Players: []string{"Ann", "Bob"}})
	if code := f.created.JoinCode; len(code) != joinCodeLength {
		t.Fatalf("a new table's code is %q", code)
	}
	f.asOwner("UPDATE tables SET join_code = 'XK7Q2P' WHERE id = $1", f.created.Table.ID)
	f.asOwner("DELETE FROM join_codes WHERE table_id = $1", f.created.Table.ID)
	f.asOwner("INSERT INTO join_codes (code, table_id) VALUES ('XK7Q2P', $1)", f.created.Table.ID)
	inv, err := f.svc.Invite(f.ctx, "xk7 q2p")
	if err != nil || inv.Table != "Old" {
		t.Fatalf("Invite with the old code: %+v, %v", inv, err)
	}
	if _, err := f.svc.Join(f.ctx, Key{}, JoinInput{Code: "xk7-q2p", Name: "Bob"}); err != nil {
		t.Fatalf("Join with the old code: %v", err)
	}
	if _, err := f.svc.Invite(f.ctx, f.created.JoinCode); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the new code still opens the table: %v", err)
	}
}
