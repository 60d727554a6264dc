package pay

import (
	"strings"
	"testing"
)

// FuzzHandleNormalize feeds handles of every method: Normalize never
// panics, what it accepts it accepts again unchanged, an accepted bank
// handle passes the IBAN check, and every accepted handle's link is built.
func FuzzHandleNormalize(f *testing.F) {
	for _, s := range []string{"AnnSmith", "$ann42", "@ann.s", "ann@okbank", "DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432", "", "\n", "é"} {
		for _, m := range Methods {
			f.Add(m, s, "Ann", "")
		}
	}
	f.Add(SEPA, "BE71 0961 2345 6769", "Ann", "GEBABEBB")
	f.Fuzz(func(t *testing.T, method, handle, name, bic string) {
		h, err := Handle{Method: method, Handle: handle, Name: name, BIC: bic}.Normalize()
		if err != nil {
			return
		}
		again, err := h.Normalize()
		if err != nil || again != h {
			t.Fatalf("%+v normalized again is %+v, %v", h, again, err)
		}
		if h.Method == SEPA && CheckIBAN(h.Handle) != nil {
			t.Fatalf("a bank handle %q that fails its check was accepted", h.Handle)
		}
		link, _, ok := h.Link(Request{Currency: "EUR", Minor: 200, Note: "Tally: " + name})
		if h.Method != SEPA && (!ok || strings.ContainsAny(link, " \n")) {
			t.Fatalf("%+v: link %q", h, link)
		}
	})
}
