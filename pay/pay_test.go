package pay

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tally-dice/tally/pay/qrtest"
)

func TestValueOfConvertsExactlyInMinorUnits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v     Value
		units int64
		want  string
		minor int64
	}{
		{Value{"EUR", 25}, 8, "€2.00", 200},
		{Value{"EUR", 25}, -3, "-€0.75", -75},
		{Value{"EUR", 1}, 5, "€0.05", 5},
		{Value{"JPY", 100}, 8, "¥800", 800},
		{Value{"BHD", 250}, 5, "BHD 1.250", 1250},
		{Value{"CHF", 50}, 0, "CHF 0.00", 0},
		{Value{"CLF", 1}, 3, "CLF 0.0003", 3},
	} {
		got, err := c.v.Of(c.units)
		if err != nil || got.Text != c.want || got.Minor != c.minor || got.Currency != c.v.Currency {
			t.Errorf("%v.Of(%d) = %+v, %v; want %s (%d)", c.v, c.units, got, err, c.want, c.minor)
		}
	}
	if _, err := (Value{"EUR", 1000}).Of(math.MaxInt64 / 10); !errors.Is(err, ErrInvalid) {
		t.Errorf("an overflowing amount: %v, want ErrInvalid", err)
	}
}

func TestValueCheckRefusesUnknownCurrenciesAndBadAmounts(t *testing.T) {
	t.Parallel()
	for _, v := range []Value{{"EUR", 25}, {"JPY", 1}, {"BHD", MaxPerUnit}} {
		if err := v.Check(); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
	for _, v := range []Value{{"XXX", 25}, {"eur", 25}, {"EURO", 25}, {"", 1}, {"EUR", 0}, {"EUR", -5}, {"EUR", MaxPerUnit + 1}, {"XAU", 1}} {
		if err := v.Check(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%v: %v, want ErrInvalid", v, err)
		}
	}
}

func TestCheckIBAN(t *testing.T) {
	t.Parallel()
	// Valid IBANs: the examples of ISO 13616 and of the national banks.
	for _, s := range []string{"GB82 WEST 1234 5698 7654 32", "DE89370400440532013000", "be71 0961 2345 6769", "FR1420041010050500013M02606", "NL91ABNA0417164300"} {
		if err := CheckIBAN(NormalizeIBAN(s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"GB82 WEST 1234 5698 7654 33", "DE89370400440532013001", "DE98370400440532013000", "GB82", "1234567890123456", "DE89-3704-0044-0532-0130-00", ""} {
		if err := CheckIBAN(NormalizeIBAN(s)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", s, err)
		}
	}
}

func TestHandleNormalize(t *testing.T) {
	t.Parallel()
	good := []struct{ in, want Handle }{
		{Handle{Method: PayPal, Handle: "AnnSmith"}, Handle{Method: PayPal, Handle: "AnnSmith"}},
		{Handle{Method: CashApp, Handle: "$ann42"}, Handle{Method: CashApp, Handle: "ann42"}},
		{Handle{Method: Revolut, Handle: "@ann.s"}, Handle{Method: Revolut, Handle: "ann.s"}},
		{Handle{Method: UPI, Handle: "ann@okbank", Name: "Ann"}, Handle{Method: UPI, Handle: "ann@okbank", Name: "Ann"}},
		{Handle{Method: SEPA, Handle: "de89 3704 0044 0532 0130 00", Name: " Ann Example ", BIC: "cobadeffxxx"},
			Handle{Method: SEPA, Handle: "DE89370400440532013000", Name: "Ann Example", BIC: "COBADEFFXXX"}},
	}
	for _, c := range good {
		got, err := c.in.Normalize()
		if err != nil || got != c.want {
			t.Errorf("%+v: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	bad := []Handle{
		{Method: "zelle", Handle: "ann"},
		{Method: PayPal, Handle: "ann smith"},
		{Method: PayPal, Handle: "ann-smith"},
		{Method: PayPal, Handle: strings.Repeat("a", 21)},
		{Method: Venmo, Handle: "ann"},
		{Method: CashApp, Handle: "$1234"},
		{Method: UPI, Handle: "ann"},
		{Method: SEPA, Handle: "DE89370400440532013001", Name: "Ann"},
		{Method: SEPA, Handle: "DE89370400440532013000"},
		{Method: SEPA, Handle: "DE89370400440532013000", Name: "Ann", BIC: "NOTABIC"},
		{Method: PayPal, Handle: "ann", BIC: "COBADEFFXXX"},
		{Method: SEPA, Handle: "DE89370400440532013000", Name: "Ann\nEvil"},
	}
	for _, h := range bad {
		if _, err := h.Normalize(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v, want ErrInvalid", h, err)
		}
	}
}

// TestLinks checks each app's link against the form its documentation
// gives (docs/payments.md): the payee's page, with the amount and note only
// where the provider documents them.
func TestLinks(t *testing.T) {
	t.Parallel()
	eur := Request{Currency: "EUR", Minor: 200, Note: "Tally: Friday night"}
	for _, c := range []struct {
		h          Handle
		r          Request
		want       string
		withAmount bool
	}{
		{Handle{Method: PayPal, Handle: "AnnSmith"}, eur, "https://paypal.me/AnnSmith", false},
		{Handle{Method: Venmo, Handle: "Ann-Smith"}, eur, "https://venmo.com/u/Ann-Smith", false},
		{Handle{Method: CashApp, Handle: "ann42"}, eur, "https://cash.app/$ann42", false},
		{Handle{Method: Revolut, Handle: "ann.s"}, eur, "https://revolut.me/ann.s", false},
		{Handle{Method: Monzo, Handle: "annsmith"}, eur, "https://monzo.me/annsmith", false},
		{Handle{Method: Monzo, Handle: "annsmith"}, Request{Currency: "GBP", Minor: 1250, Note: "Tally: Fri & Sat"},
			"https://monzo.me/annsmith/12.50?d=Tally%3A%20Fri%20%26%20Sat", true},
		// The NPCI linking specification's parameters: pa, pn, am, cu, tn.
		{Handle{Method: UPI, Handle: "ann@okbank", Name: "Ann Smith"}, Request{Currency: "INR", Minor: 25000, Note: "Tally: Diwali"},
			"upi://pay?pa=ann%40okbank&pn=Ann%20Smith&am=250.00&cu=INR&tn=Tally%3A%20Diwali", true},
		{Handle{Method: UPI, Handle: "ann@okbank"}, eur, "upi://pay?pa=ann%40okbank&tn=Tally%3A%20Friday%20night", false},
	} {
		got, with, ok := c.h.Link(c.r)
		if !ok || got != c.want || with != c.withAmount {
			t.Errorf("%+v: %q (amount %v, ok %v), want %q (amount %v)", c.h, got, with, ok, c.want, c.withAmount)
		}
	}
	if _, _, ok := (Handle{Method: SEPA, Handle: "DE89370400440532013000"}).Link(eur); ok {
		t.Error("a bank transfer has a link; it has an EPC QR code instead")
	}
}

// TestEPCPayloadFollowsTheGuideline checks the payload element by element
// against EPC069-12 version 002.
func TestEPCPayloadFollowsTheGuideline(t *testing.T) {
	t.Parallel()
	tr := EPCTransfer{BIC: "BPOTBEB1", Name: "Red Cross of Belgium", IBAN: "BE72000000001616", Cents: 100,
		Remittance: "Urgency fund"}
	p, err := tr.Payload()
	if err != nil {
		t.Fatal(err)
	}
	// Modelled on the guideline's example (the Belgian Red Cross), in
	// version 002 with no purpose code.
	want := "BCD\n002\n1\nSCT\nBPOTBEB1\nRed Cross of Belgium\nBE72000000001616\nEUR1.00\n\n\nUrgency fund"
	if p != want {
		t.Fatalf("payload\n%q\nwant\n%q", p, want)
	}
	lines := strings.Split(p, "\n")
	for i, c := range []struct{ what, want string }{
		{"service tag", "BCD"}, {"version", "002"}, {"character set (UTF-8)", "1"}, {"identification", "SCT"},
		{"BIC", "BPOTBEB1"}, {"name", "Red Cross of Belgium"}, {"IBAN", "BE72000000001616"}, {"amount", "EUR1.00"},
		{"purpose", ""}, {"structured reference", ""}, {"remittance", "Urgency fund"},
	} {
		if lines[i] != c.want {
			t.Errorf("line %d (%s) = %q, want %q", i+1, c.what, lines[i], c.want)
		}
	}
	if strings.Contains(p, "\r") || strings.HasSuffix(p, "\n") {
		t.Errorf("separators: LF only, none after the last element: %q", p)
	}
	// No BIC (optional in version 002), no remittance: the trailing empty
	// elements go.
	p, err = EPCTransfer{Name: "Ann", IBAN: "DE89370400440532013000", Cents: 99999999999}.Payload()
	if want := "BCD\n002\n1\nSCT\n\nAnn\nDE89370400440532013000\nEUR999999999.99"; err != nil || p != want {
		t.Errorf("no BIC: %q, %v; want %q", p, err, want)
	}
	// A long remittance is cut to 140 characters; and shorter still when
	// the payload would be over 331 bytes.
	p, err = EPCTransfer{Name: "Ann", IBAN: "DE89370400440532013000", Cents: 1, Remittance: strings.Repeat("x", 300)}.Payload()
	if err != nil || !strings.HasSuffix(p, "\n"+strings.Repeat("x", 140)) || strings.Contains(p, strings.Repeat("x", 141)) {
		t.Errorf("long remittance: %q, %v", p, err)
	}
	p, err = EPCTransfer{Name: strings.Repeat("é", 70), IBAN: "DE89370400440532013000", Cents: 1, BIC: "COBADEFFXXX",
		Remittance: strings.Repeat("ü", 140)}.Payload()
	if err != nil || len(p) > 331 || len(p) < 329 || !utf8.ValidString(p) {
		t.Errorf("a payload of 331 bytes at most: %d bytes, %v", len(p), err)
	}
	for _, bad := range []EPCTransfer{
		{Name: "Ann", IBAN: "DE89370400440532013000", Cents: 0},
		{Name: "Ann", IBAN: "DE89370400440532013000", Cents: 100000000000},
		{Name: "", IBAN: "DE89370400440532013000", Cents: 1},
		{Name: strings.Repeat("a", 71), IBAN: "DE89370400440532013000", Cents: 1},
		{Name: "Ann", IBAN: "DE89370400440532013001", Cents: 1},
		{Name: "Ann", IBAN: "DE89370400440532013000", Cents: 1, BIC: "X"},
	} {
		if _, err := bad.Payload(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v, want ErrInvalid", bad, err)
		}
	}
}

// TestEPCQRDecodesToItsPayload renders a payload and reads it back with
// ZXing's QR decoder (gozxing), a decoder written apart from the encoder.
func TestEPCQRDecodesToItsPayload(t *testing.T) {
	t.Parallel()
	p, err := EPCTransfer{BIC: "COBADEFFXXX", Name: "Zoë Müller", IBAN: "DE89370400440532013000", Cents: 200,
		Remittance: "Tally: Friday night"}.Payload()
	if err != nil {
		t.Fatal(err)
	}
	if got := Decode(t, p); got != p {
		t.Errorf("decoded\n%q\nwant\n%q", got, p)
	}
}

// Decode renders payload as QRPNG does and decodes the image.
func Decode(t *testing.T, payload string) string {
	t.Helper()
	raw, err := QRPNG(payload, 320)
	if err != nil {
		t.Fatal(err)
	}
	text, err := qrtest.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestALongNameInWideLettersNeverHangsTheQRCode: a name of 70 letters of
// four bytes each is 280 bytes, more than the payload leaves a name. It is
// refused when stored, and a transfer that names it anyway is refused
// rather than shortening an empty remittance for ever.
func TestALongNameInWideLettersNeverHangsTheQRCode(t *testing.T) {
	wide := strings.Repeat("\U0001F600", 70)
	if _, err := (Handle{Method: SEPA, Handle: "DE89370400440532013000", Name: wide}).Normalize(); !errors.Is(err, ErrInvalid) {
		t.Errorf("a 280-byte name was stored: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := EPCTransfer{IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX", Name: wide, Cents: epcMaxAmount,
			Remittance: "Tally: Friday night"}.Payload()
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("a payload with a 280-byte name: %v, want ErrInvalid", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Payload did not return: it shortens an empty remittance for ever")
	}
	// The longest name that is stored still makes a payload within 331 bytes.
	name := strings.Repeat("\U0001F600", epcMaxNameBytes/4)
	h, err := (Handle{Method: SEPA, Handle: "DE89370400440532013000", BIC: "COBADEFFXXX", Name: name}).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	p, err := EPCTransfer{IBAN: h.Handle, BIC: h.BIC, Name: h.Name, Cents: epcMaxAmount, Remittance: "Tally: Friday night"}.Payload()
	if err != nil || len(p) > epcMaxPayload {
		t.Errorf("the longest stored name: %d bytes, %v", len(p), err)
	}
}
