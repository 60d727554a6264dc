package pay

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	qrcode "github.com/skip2/go-qrcode"
)

// This file is the EPC QR code (docs/payments.md): the European Payments
// Council's "Quick Response Code: Guidelines to Enable Data Capture for the
// Initiation of a SEPA Credit Transfer" (EPC069-12), version 002, which
// banking apps across the SEPA area scan to fill in a credit transfer.

// EPC limits, from EPC069-12 (version 002).
const (
	epcMaxName       = 70
	epcMaxRemittance = 140
	epcMaxPayload    = 331
	// epcMaxNameBytes leaves the rest of the payload room at its longest:
	// the header (BCD, 002, 1, SCT), an 11-letter BIC, a 34-letter IBAN,
	// EUR999999999.99 and ten line ends are 80 bytes.
	epcMaxNameBytes = epcMaxPayload - 80
	epcMinAmount    = 1           // EUR 0.01, in cents
	epcMaxAmount    = 99999999999 // EUR 999999999.99, in cents
)

// EPCTransfer is a SEPA credit transfer as an EPC QR code carries it.
type EPCTransfer struct {
	BIC        string // optional in version 002
	Name       string // the beneficiary, at most 70 characters
	IBAN       string // normalized (NormalizeIBAN)
	Cents      int64  // EUR, 0.01 to 999999999.99
	Remittance string // unstructured, at most 140 characters
}

// Payload is the transfer as EPC069-12 lays it out, one element a line,
// lines separated by LF, the last populated element (the remittance) not
// followed by a separator:
//
//	BCD               service tag
//	002               version
//	1                 character set: UTF-8
//	SCT               identification: SEPA credit transfer
//	<BIC>             optional in version 002
//	<name>            beneficiary
//	<IBAN>            beneficiary account
//	EUR<amount>       EUR and the amount with two decimals
//	                  purpose (none)
//	                  structured creditor reference (none: the text below)
//	<remittance>      unstructured remittance information
func (t EPCTransfer) Payload() (string, error) {
	if err := CheckIBAN(t.IBAN); err != nil {
		return "", err
	}
	if err := CheckBIC(t.BIC); err != nil {
		return "", err
	}
	name := strings.TrimSpace(t.Name)
	switch {
	case name == "" || utf8.RuneCountInString(name) > epcMaxName || strings.ContainsAny(name, "\r\n"):
		return "", fmt.Errorf("%w: name: a bank transfer names its beneficiary in 1 to %d characters on one line", ErrInvalid, epcMaxName)
	case t.Cents < epcMinAmount || t.Cents > epcMaxAmount:
		return "", fmt.Errorf("%w: an EPC QR code carries EUR 0.01 to 999999999.99, not %s", ErrInvalid, Format("EUR", t.Cents))
	}
	rem := strings.Join(strings.Fields(t.Remittance), " ")
	if utf8.RuneCountInString(rem) > epcMaxRemittance {
		rem = string([]rune(rem)[:epcMaxRemittance])
	}
	head := strings.Join([]string{"BCD", "002", "1", "SCT", t.BIC, name, t.IBAN, "EUR" + Decimal("EUR", t.Cents), "", ""}, "\n")
	// The whole payload is at most 331 bytes: a long name in letters of
	// two bytes leaves the remittance less room, which it gives up from
	// its end.
	for len(head)+1+len(rem) > epcMaxPayload && rem != "" {
		_, n := utf8.DecodeLastRuneInString(rem)
		rem = rem[:len(rem)-n]
	}
	if len(head)+1+len(rem) > epcMaxPayload {
		return "", fmt.Errorf("%w: name: an EPC QR code holds at most %d bytes, and this name in UTF-8 leaves it no room", ErrInvalid, epcMaxPayload)
	}
	return strings.TrimRight(head+"\n"+rem, "\n"), nil
}

// QRPNG renders a payload as a QR code in a PNG image of size pixels, with
// error correction level M, which EPC069-12 asks of an EPC QR code.
func QRPNG(payload string, size int) ([]byte, error) {
	q, err := qrcode.New(payload, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("pay: QR code: %w", err)
	}
	var buf bytes.Buffer
	img := q.Image(size)
	if err := encodePNG(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
