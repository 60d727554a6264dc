package pay

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrInvalid is the package's refusal of a value it cannot use: an unknown
// currency or method, a malformed handle or IBAN, an amount out of range.
var ErrInvalid = errors.New("invalid payment detail")

// minorUnits is how many digits follow the decimal point in each active
// ISO 4217 currency (the standard's "minor unit" column, List One as
// published by SIX, the maintenance agency). Funds and metals without a
// minor unit (XAU, XDR, ...) are left out: a chip is never worth an ounce
// of gold.
var minorUnits = map[string]int{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
	"UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	"CLF": 4, "UYW": 4,
}

// twoDigit are the active ISO 4217 codes whose minor unit is 2.
const twoDigit = "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN " +
	"BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP " +
	"GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA " +
	"MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON " +
	"RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH " +
	"USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG"

func init() {
	for _, c := range strings.Fields(twoDigit) {
		minorUnits[c] = 2
	}
}

// MinorUnits is the number of decimals of an ISO 4217 currency; ok is false
// for a code the standard does not list.
func MinorUnits(currency string) (digits int, ok bool) {
	digits, ok = minorUnits[currency]
	return digits, ok
}

// MaxPerUnit bounds what one unit may be worth, in minor units (a million
// euros a chip is no home game).
const MaxPerUnit = 100_000_000

// Value is what one of a table's units is worth: PerUnit minor units of
// Currency (1 chip = 25 cents is {EUR, 25}).
type Value struct {
	Currency string `json:"currency"`
	PerUnit  int64  `json:"perUnit"`
}

// Check refuses a currency ISO 4217 does not list and a value that is not
// a positive number of minor units.
func (v Value) Check() error {
	if _, ok := MinorUnits(v.Currency); !ok {
		return fmt.Errorf("%w: currency: %q is not an ISO 4217 currency code (such as EUR, USD, GBP, JPY)", ErrInvalid, v.Currency)
	}
	if v.PerUnit < 1 || v.PerUnit > MaxPerUnit {
		return fmt.Errorf("%w: perUnit: one unit is worth 1 to %d minor units of %s, not %d", ErrInvalid, MaxPerUnit, v.Currency, v.PerUnit)
	}
	return nil
}

// Money is an amount of a real currency, in its minor units, with how
// people write it.
type Money struct {
	Currency string `json:"currency"`
	Minor    int64  `json:"minor"`
	Text     string `json:"text"`
}

// Of converts an amount of units: units × PerUnit minor units, exact, so no
// rounding ever happens (docs/payments.md). It refuses an amount whose
// value overflows.
func (v Value) Of(units int64) (Money, error) {
	if units != 0 && (units > math.MaxInt64/v.PerUnit || units < -math.MaxInt64/v.PerUnit) {
		return Money{}, fmt.Errorf("%w: %d units at %d a unit overflow", ErrInvalid, units, v.PerUnit)
	}
	m := units * v.PerUnit
	return Money{Currency: v.Currency, Minor: m, Text: Format(v.Currency, m)}, nil
}

// symbols are the signs written before an amount instead of its code.
var symbols = map[string]string{"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹"}

// Format writes minor units of a currency as people read them: "€2.00",
// "¥200", "BHD 1.250", "-€0.25".
func Format(currency string, minor int64) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	prefix, ok := symbols[currency]
	if !ok {
		prefix = currency + " "
	}
	return sign + prefix + Decimal(currency, minor)
}

// Decimal writes a non-negative amount of minor units as a plain decimal
// with the currency's number of decimals: 200 EUR cents are "2.00", 200
// yen "200".
func Decimal(currency string, minor int64) string {
	digits := minorUnits[currency]
	s := strconv.FormatInt(minor, 10)
	if digits == 0 {
		return s
	}
	if len(s) <= digits {
		s = strings.Repeat("0", digits-len(s)+1) + s
	}
	return s[:len(s)-digits] + "." + s[len(s)-digits:]
}
