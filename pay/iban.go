package pay

import (
	"fmt"
	"regexp"
	"strings"
)

// ibanShape is an IBAN without spaces (ISO 13616): a country code, two
// check digits and a national account number of up to 30 letters and
// digits.
var ibanShape = regexp.MustCompile(`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`)

// bicShape is a BIC (ISO 9362): bank, country and location codes, and an
// optional branch code.
var bicShape = regexp.MustCompile(`^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`)

// NormalizeIBAN writes an IBAN as it is stored and put in an EPC QR code:
// upper case, without the spaces people group it with.
func NormalizeIBAN(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}

// CheckIBAN refuses an IBAN (normalized) of the wrong shape or whose check
// digits are wrong: ISO 13616's MOD 97-10 (ISO 7064) check, which moves
// the first four characters to the end, reads each letter as two digits
// (A = 10 ... Z = 35) and wants the number's remainder by 97 to be 1.
func CheckIBAN(iban string) error {
	if !ibanShape.MatchString(iban) {
		return fmt.Errorf("%w: handle: %q is not an IBAN (two letters, two check digits, then 11 to 30 letters and digits)", ErrInvalid, iban)
	}
	rem := 0
	for _, r := range iban[4:] + iban[:4] {
		if r >= 'A' {
			rem = (rem*100 + int(r-'A') + 10) % 97
		} else {
			rem = (rem*10 + int(r-'0')) % 97
		}
	}
	if rem != 1 {
		return fmt.Errorf("%w: handle: the IBAN %s fails its checksum (a digit is wrong or two are swapped)", ErrInvalid, iban)
	}
	return nil
}

// CheckBIC refuses a BIC of the wrong shape; an empty BIC is none.
func CheckBIC(bic string) error {
	if bic != "" && !bicShape.MatchString(bic) {
		return fmt.Errorf("%w: bic: %q is not a BIC (8 or 11 letters and digits, such as BPOTBEB1)", ErrInvalid, bic)
	}
	return nil
}
