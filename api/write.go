package api

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// maxKeyLength bounds an Idempotency-Key.
const maxKeyLength = 255

// idempotencyKey reads a write's Idempotency-Key and says what it means:
// the key, fingerprinted by the method, path and body so that a key reused
// for another request is refused, and answered with status. The service
// scopes it to whoever sent it and stores the answer with the write.
func idempotencyKey(c echo.Context, body []byte, status int) (table.Key, error) {
	key := c.Request().Header.Get("Idempotency-Key")
	if err := checkKey(key); err != nil {
		return table.Key{}, err
	}
	return table.Key{Key: key, Status: status,
		Hash: requestHash([]byte(c.Request().Method), []byte(c.Request().URL.Path), body)}, nil
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
	return c.Blob(r.Status, echo.MIMEApplicationJSON, r.Body)
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
