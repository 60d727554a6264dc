package api

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// maxKeyLength bounds an Idempotency-Key.
const maxKeyLength = 255

// headHeader carries a write's chain head, "SEQ:HASH".
const headHeader = "Tally-Head"

// minAnonymousKeyBits is the least an anonymous write's Idempotency-Key
// must carry: its stored answer holds the tokens it made, and anyone who
// repeats the key and body gets that answer back.
const minAnonymousKeyBits = 128

// anonymousKey reads the Idempotency-Key of a write that no token
// authenticates (making a table, joining with a code): required, and at
// least minAnonymousKeyBits by its alphabet and length (keyBits).
func anonymousKey(c echo.Context, v any, status int) (table.Key, error) {
	k, err := decodeWrite(c, v, status)
	if err != nil {
		return k, err
	}
	if k.Key == "" {
		return k, fail(kindMalformed, "Idempotency-Key is required here: send at least 128 random bits, such as 32 random hex digits or a random UUID, and the same key on every retry")
	}
	if bits := keyBits(k.Key); bits < minAnonymousKeyBits {
		return k, fail(kindMalformed, fmt.Sprintf("Idempotency-Key carries at most %d bits; this write needs at least %d random bits, such as 32 random hex digits or a random UUID", bits, minAnonymousKeyBits))
	}
	return k, nil
}

// keyBits is what a key can carry at most, counting its characters: 4 bits
// for each hex digit of a key of hex digits (dashes aside, as in a UUID), 6
// for each letter, digit, '_' or '-' of another key (base64url). Other
// characters count nothing. Whether the characters are random is the
// client's to see to.
func keyBits(key string) int {
	hex, other := 0, 0
	for _, r := range key {
		switch {
		case r >= '0' && r <= '9', r >= 'a' && r <= 'f', r >= 'A' && r <= 'F':
			hex++
		case r >= 'g' && r <= 'z', r >= 'G' && r <= 'Z', r == '_':
			other++
		}
	}
	if other == 0 {
		return 4 * hex
	}
	return 6 * (hex + other + strings.Count(key, "-"))
}

// idempotencyKey reads a write's Idempotency-Key and says what it means:
// the key, fingerprinted by the method, path and body so that a key reused
// for another request is refused, and how the answer is encoded: status
// and the write's value in JSON. The service scopes the key to whoever sent
// it and stores the encoded answer with the write, in its transaction.
func idempotencyKey(c echo.Context, body []byte, status int) (table.Key, error) {
	key := c.Request().Header.Get("Idempotency-Key")
	if err := checkKey(key); err != nil {
		return table.Key{}, err
	}
	return table.Key{Key: key, Encode: jsonAnswer(status),
		Hash: requestHash([]byte(c.Request().Method), []byte(c.Request().URL.Path), body)}, nil
}

// jsonAnswer is how HTTP says what a write did: status, and the value the
// service returned in JSON.
func jsonAnswer(status int) table.Encoder {
	return func(v any) (table.Answer, error) {
		body, err := json.Marshal(v)
		return table.Answer{Status: status, ContentType: echo.MIMEApplicationJSON, Body: body}, err
	}
}

// requestHash fingerprints a request's parts, length-prefixed so that
// ("ab","c") and ("a","bc") differ.
func requestHash(parts ...[]byte) []byte {
	h := sha256.New()
	for _, p := range parts {
		_ = binary.Write(h, binary.BigEndian, uint64(len(p)))
		h.Write(p)
	}
	return h.Sum(nil)
}

// reply writes a write's answer: the stored one, marked, when it replays.
func reply(c echo.Context, r table.Reply, err error) error {
	if err != nil {
		return err
	}
	if r.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	if r.Head.Seq > 0 {
		// The table's chain head: phones keep the latest they saw and
		// bring it to the audit (witness=SEQ:HASH).
		c.Response().Header().Set(headHeader, fmt.Sprintf("%d:%x", r.Head.Seq, r.Head.Hash))
	}
	a := r.Answer
	if a.ContentType == "" {
		// Answers stored before the content type was kept are JSON.
		a.ContentType = echo.MIMEApplicationJSON
	}
	return c.Blob(a.Status, a.ContentType, a.Body)
}

// checkKey refuses an Idempotency-Key the database cannot keep: longer than
// maxKeyLength, or bytes that are not UTF-8 text (HTTP lets a header carry
// any byte from 0x80 up, PostgreSQL's text does not).
func checkKey(key string) error {
	if len(key) > maxKeyLength {
		return fail(kindMalformed, fmt.Sprintf("Idempotency-Key has %d characters; the limit is %d", len(key), maxKeyLength))
	}
	if !utf8.ValidString(key) {
		return fail(kindMalformed, "Idempotency-Key must be UTF-8 text; send a random string such as a UUID")
	}
	for _, r := range key {
		if unicode.IsControl(r) {
			return fail(kindMalformed, fmt.Sprintf("Idempotency-Key holds the control character %U", r))
		}
	}
	return nil
}
