package api

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/ledger"
)

// maxKeyLength bounds an Idempotency-Key.
const maxKeyLength = 255

// effect is the database work of one write, run inside its transaction.
type effect func(ctx context.Context, tx pgx.Tx) (any, error)

// commit runs a write in one transaction and answers with its result. With
// an Idempotency-Key, the key is checked and the response saved in that same
// transaction (ledger.Begin and ledger.Save), so a retry replays the first
// answer and can never apply twice; a failed write saves nothing, so it can
// be retried.
func (s *server) commit(c echo.Context, body []byte, status int, do effect) error {
	key := c.Request().Header.Get("Idempotency-Key")
	if err := checkKey(key); err != nil {
		return err
	}
	scope := tokenScope(c)
	hash := ledger.RequestHash([]byte(c.Request().Method), []byte(c.Request().URL.Path), body)
	var out []byte
	var outStatus int
	var replayed bool
	err := s.store.InTx(c.Request().Context(), func(tx pgx.Tx) error {
		ctx := c.Request().Context()
		replayed = false
		if key != "" {
			stored, err := ledger.Begin(ctx, tx, scope, key, hash)
			if err != nil {
				return err
			}
			if stored != nil {
				out, outStatus, replayed = stored.Body, stored.Status, true
				return nil
			}
		}
		v, err := do(ctx, tx)
		if err != nil {
			return err
		}
		if out, err = json.Marshal(v); err != nil {
			return err
		}
		outStatus = status
		if key != "" {
			return ledger.Save(ctx, tx, scope, key, hash, status, out, echo.MIMEApplicationJSON)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	return c.Blob(outStatus, echo.MIMEApplicationJSON, out)
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
