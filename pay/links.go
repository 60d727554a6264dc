package pay

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// This file is the person-to-person apps' links (docs/payments.md says
// where each format is documented). A link carries an amount and a note
// only where its provider documents how; the others open the payee's page,
// and the phone shows the amount to type.

// Methods a player can be paid by.
const (
	PayPal  = "paypal"
	Venmo   = "venmo"
	CashApp = "cashapp"
	Revolut = "revolut"
	Monzo   = "monzo"
	UPI     = "upi"
	SEPA    = "sepa"
)

// Methods are every method, in the order a phone lists them.
var Methods = []string{PayPal, Venmo, CashApp, Revolut, Monzo, UPI, SEPA}

// Handle is how a player likes to be paid by one method: a username, a
// UPI address (VPA) or an IBAN; Name is the account holder (SEPA, UPI) and
// BIC the bank's (SEPA, optional).
type Handle struct {
	Method string `json:"method"`
	Handle string `json:"handle"`
	Name   string `json:"name,omitempty"`
	BIC    string `json:"bic,omitempty"`
}

// handleShapes are what each app accepts as a handle.
var handleShapes = map[string]struct {
	re   *regexp.Regexp
	what string
}{
	// PayPal.Me: letters and digits only, at most 20 (PayPal's help,
	// "How do I set up my PayPal.Me link?").
	PayPal: {regexp.MustCompile(`^[A-Za-z0-9]{1,20}$`), "a PayPal.Me name: 1 to 20 letters and digits"},
	// Venmo usernames: letters, digits, - and _, 5 to 30.
	Venmo: {regexp.MustCompile(`^[A-Za-z0-9_-]{5,30}$`), "a Venmo username: 5 to 30 letters, digits, - and _"},
	// A $Cashtag: letters and digits (at least one letter), at most 20.
	CashApp: {regexp.MustCompile(`^\$?[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$`), "a $Cashtag: up to 20 letters and digits, at least one letter"},
	// A Revtag (the Revolut.Me username).
	Revolut: {regexp.MustCompile(`^@?[A-Za-z0-9._-]{3,32}$`), "a Revolut username (Revtag): 3 to 32 letters, digits, . _ and -"},
	// A Monzo.me name.
	Monzo: {regexp.MustCompile(`^[A-Za-z0-9._-]{2,50}$`), "a Monzo.me name: 2 to 50 letters, digits, . _ and -"},
	// A UPI virtual payment address: name@handle.
	UPI: {regexp.MustCompile(`^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$`), "a UPI ID such as ann@okbank"},
}

// Normalize checks a handle and writes it as it is stored: an IBAN without
// spaces, a $Cashtag or a Revtag without its sign.
func (h Handle) Normalize() (Handle, error) {
	h.Handle, h.Name, h.BIC = strings.TrimSpace(h.Handle), strings.TrimSpace(h.Name), strings.ToUpper(strings.TrimSpace(h.BIC))
	if utf8.RuneCountInString(h.Name) > epcMaxName || strings.ContainsAny(h.Name, "\r\n") {
		return Handle{}, fmt.Errorf("%w: name: at most %d characters on one line", ErrInvalid, epcMaxName)
	}
	// The EPC QR code's whole payload is at most 331 bytes, of which the
	// rest (BIC, IBAN, amount, the header and line ends) take at most 80:
	// a name of 70 letters of four bytes each would leave it none.
	if len(h.Name) > epcMaxNameBytes {
		return Handle{}, fmt.Errorf("%w: name: at most %d bytes in UTF-8 (an EPC QR code holds %d)", ErrInvalid, epcMaxNameBytes, epcMaxPayload)
	}
	if h.Method == SEPA {
		h.Handle = NormalizeIBAN(h.Handle)
		if err := CheckIBAN(h.Handle); err != nil {
			return Handle{}, err
		}
		if err := CheckBIC(h.BIC); err != nil {
			return Handle{}, err
		}
		if h.Name == "" {
			return Handle{}, fmt.Errorf("%w: name: a bank transfer needs the account holder's name", ErrInvalid)
		}
		return h, nil
	}
	shape, ok := handleShapes[h.Method]
	if !ok {
		return Handle{}, fmt.Errorf("%w: method: %q is not a payment method (%s)", ErrInvalid, h.Method, strings.Join(Methods, ", "))
	}
	if h.BIC != "" {
		return Handle{}, fmt.Errorf("%w: bic: only a bank transfer (sepa) has a BIC", ErrInvalid)
	}
	if !shape.re.MatchString(h.Handle) || len(h.Handle) > 100 {
		return Handle{}, fmt.Errorf("%w: handle: %q is not %s", ErrInvalid, h.Handle, shape.what)
	}
	h.Handle = strings.TrimLeft(h.Handle, "$@")
	if h.Method == CashApp && len(h.Handle) > 20 {
		return Handle{}, fmt.Errorf("%w: handle: %q is not %s", ErrInvalid, h.Handle, shape.what)
	}
	return h, nil
}

// Request is a payment to make: how much (in minor units of Currency) and
// the note that names what it is for.
type Request struct {
	Currency string
	Minor    int64
	Note     string
}

// Link is the link that opens a handle's app to pay r, and whether the
// link carries the amount. A bank transfer has no link (its EPC QR code
// does the same): ok is false. The sources (docs/payments.md §3):
//
//   - PayPal.Me: https://www.paypal.com/ph/brc/article/paypal-me (the
//     personal link; PayPal documents no amount in it).
//   - Venmo: the profile link venmo.com/u/<username> the app shows
//     (https://blog.naurl.com/how-to-send-a-venmo-link); no parameters.
//   - Cash App: pay by $Cashtag,
//     https://cash.app/help/ca/en-us/1105-sending-a-payment; no parameters.
//   - Revolut.Me: https://www.revolut.com/en-IS/legal/payment-terms-revme/
//     (the payer fills in amount and description).
//   - Monzo.me: amount and note as parameters, Monzo's staff at
//     https://community.monzo.com/t/find-your-monzo-me-link-on-android/6882
//   - UPI: NPCI UPI Linking Specifications 1.6, §1.2 (pa, pn, am, cu, tn),
//     https://studylib.net/doc/27265723/upi.linking.specs-ver.1.6
func (h Handle) Link(r Request) (link string, withAmount bool, ok bool) {
	name := url.PathEscape(h.Handle)
	switch h.Method {
	case PayPal:
		return "https://paypal.me/" + name, false, true
	case Venmo:
		return "https://venmo.com/u/" + name, false, true
	case CashApp:
		return "https://cash.app/$" + name, false, true
	case Revolut:
		return "https://revolut.me/" + name, false, true
	case Monzo:
		if r.Currency != "GBP" || r.Minor <= 0 {
			return "https://monzo.me/" + name, false, true
		}
		return "https://monzo.me/" + name + "/" + Decimal("GBP", r.Minor) + "?d=" + queryEscape(r.Note), true, true
	case UPI:
		q := "pa=" + queryEscape(h.Handle)
		if h.Name != "" {
			q += "&pn=" + queryEscape(h.Name)
		}
		with := r.Currency == "INR" && r.Minor > 0
		if with {
			q += "&am=" + Decimal("INR", r.Minor) + "&cu=INR"
		}
		if r.Note != "" {
			q += "&tn=" + queryEscape(upiNote(r.Note))
		}
		return "upi://pay?" + q, with, true
	}
	return "", false, false
}

// upiNote shortens a note to the 50 characters UPI apps show.
func upiNote(s string) string {
	if utf8.RuneCountInString(s) > 50 {
		return string([]rune(s)[:50])
	}
	return s
}

// queryEscape escapes a query value with %20 for a space, as the UPI
// specification's examples write it ("nadeem%20chinna"), not the form
// encoding's +.
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}
