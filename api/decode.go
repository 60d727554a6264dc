package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// maxBody is the largest request body accepted. A whole turn with every
// option is a few hundred bytes; 64 KiB leaves room for long names and still
// stops a phone (or anyone else) from sending megabytes.
const maxBody = 64 << 10

// limitBody refuses a request whose Content-Length is over maxBody from
// its head alone, on every route and before anything else looks at the
// request (a token, a join code), so that the answer does not wait for a
// body that will not be read. A body sent without a length is cut at
// maxBody as it is read (readBody).
func limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if n := c.Request().ContentLength; n > maxBody {
			return fail(kindTooLarge, fmt.Sprintf("the body is declared as %d bytes; the limit is %d", n, maxBody))
		}
		return next(c)
	}
}

// readBody reads the request body up to maxBody. An empty body is returned as
// nil so that optional bodies can be told apart from empty objects. A body
// declared larger never gets here (limitBody).
func readBody(c echo.Context) ([]byte, error) {
	r := c.Request()
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, fail(kindTooLarge, fmt.Sprintf("the body is larger than the limit of %d bytes", maxBody))
		}
		return nil, fail(kindMalformed, "the body could not be read: "+err.Error())
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	if ct := r.Header.Get(echo.HeaderContentType); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != echo.MIMEApplicationJSON && !strings.HasSuffix(mt, "+json")) {
			return nil, fail(kindMediaType, fmt.Sprintf("the body must be application/json, not %q", ct))
		}
	}
	return body, nil
}

// readEmptyBody reads the body of a write that takes none: it must be
// empty or {}, so that a field the caller thought meant something (say
// {"force": true}) is refused instead of ignored.
func readEmptyBody(c echo.Context) ([]byte, error) {
	body, err := readBody(c)
	if err != nil || body == nil {
		return body, err
	}
	return body, decodeStrict(body, &struct{}{})
}

// decodeWrite reads and decodes a write's JSON body into v and reads its
// Idempotency-Key, to be answered with status.
func decodeWrite(c echo.Context, v any, status int) (table.Key, error) {
	body, err := readBody(c)
	if err != nil {
		return table.Key{}, err
	}
	if err := decodeStrict(body, v); err != nil {
		return table.Key{}, err
	}
	return idempotencyKey(c, body, status)
}

// optionalWrite is decodeWrite for a write whose body may be left out.
func optionalWrite(c echo.Context, v any, status int) (table.Key, error) {
	body, err := readBody(c)
	if err != nil {
		return table.Key{}, err
	}
	if body != nil {
		if err := decodeStrict(body, v); err != nil {
			return table.Key{}, err
		}
	}
	return idempotencyKey(c, body, status)
}

// emptyWrite reads the body of a write that takes none (empty or {}) and
// its Idempotency-Key.
func emptyWrite(c echo.Context, status int) (table.Key, error) {
	body, err := readEmptyBody(c)
	if err != nil {
		return table.Key{}, err
	}
	return idempotencyKey(c, body, status)
}

// decodeStrict decodes one JSON value into v, refusing unknown fields,
// trailing data and values of the wrong type, with a message that names the
// field at fault.
func decodeStrict(body []byte, v any) error {
	if body == nil {
		return fail(kindMalformed, "a JSON body is required")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fail(kindMalformed, describeJSONError(err))
	}
	if dec.More() {
		return fail(kindMalformed, "the body holds more than one JSON value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return fail(kindMalformed, "unexpected data after the JSON value")
	}
	if err := checkFieldNames(body, reflect.TypeOf(v)); err != nil {
		return fail(kindMalformed, err.Error())
	}
	return nil
}

// describeJSONError turns encoding/json's errors into a sentence that names
// the field or position.
func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("malformed JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the body"
		}
		return fmt.Sprintf("%s must be %s, not %s", field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "malformed JSON: the body ends too early"
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	}
	return "malformed JSON: " + err.Error()
}

// jsonKind names a Go kind the way a JSON user thinks of it.
func jsonKind(k string) string {
	switch k {
	case "int", "int8", "int16", "int32", "int64":
		return "a whole number"
	case "uint", "uint8", "uint16", "uint32", "uint64":
		// A count (an action's seen): a negative one is refused here.
		return "a whole number, 0 or more"
	case "float32", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return k
}
