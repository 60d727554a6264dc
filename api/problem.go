package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
)

// Problem is an RFC 9457 problem document. Type is stable per kind of error
// and listed in openapi.yaml; Detail says what was wrong in words a person
// can act on.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail"`
	Instance string `json:"instance,omitempty"`
	Roll     int    `json:"roll,omitempty"`
	Die      int    `json:"die,omitempty"`
	Rule     string `json:"rule,omitempty"`
	// logged: the error behind it is logged, as a 5xx's is (a refusal
	// that should not happen, say).
	logged bool
}

// problemMediaType is the content type of every error response.
const problemMediaType = "application/problem+json"

// requestError is an error the API itself detects in a request (before any
// domain code runs). Its kind picks the problem type.
type requestError struct {
	kind   *problemKind
	detail string
}

func (e *requestError) Error() string { return e.detail }

// problemKind is one row of the error table: a stable type, its HTTP status
// and a short title.
type problemKind struct {
	typ    string
	status int
	title  string
}

// The problem kinds the API returns. Domain errors are mapped onto these in
// problemFor, the one place errors become HTTP.
var (
	kindMalformed     = &problemKind{"/problems/malformed-request", http.StatusBadRequest, "Malformed request"}
	kindUnauthorized  = &problemKind{"/problems/unauthorized", http.StatusUnauthorized, "Missing or unknown token"}
	kindSeatFreed     = &problemKind{"/problems/seat-freed", http.StatusUnauthorized, "The host freed this phone's seat"}
	kindHostMoved     = &problemKind{"/problems/host-moved", http.StatusUnauthorized, "The host role moved to another phone"}
	kindForbidden     = &problemKind{"/problems/forbidden", http.StatusForbidden, "Not allowed with this token"}
	kindNotFound      = &problemKind{"/problems/not-found", http.StatusNotFound, "Not found"}
	kindMethod        = &problemKind{"/problems/method-not-allowed", http.StatusMethodNotAllowed, "Method not allowed"}
	kindConflict      = &problemKind{"/problems/conflict", http.StatusConflict, "Conflict"}
	kindOutOfTurn     = &problemKind{"/problems/out-of-turn", http.StatusConflict, "Not this player's turn"}
	kindRoundBusy     = &problemKind{"/problems/round-in-progress", http.StatusConflict, "A round is in progress"}
	kindNoRound       = &problemKind{"/problems/no-round-in-progress", http.StatusConflict, "No round is in progress"}
	kindTableClosed   = &problemKind{"/problems/table-closed", http.StatusConflict, "The table is closed"}
	kindRecorded      = &problemKind{"/problems/recorded-since", http.StatusConflict, "Recorded since this phone's view"}
	kindKeyMismatch   = &problemKind{"/problems/idempotency-mismatch", http.StatusUnprocessableEntity, "Idempotency-Key reused with a different request"}
	kindTooLarge      = &problemKind{"/problems/payload-too-large", http.StatusRequestEntityTooLarge, "Request body too large"}
	kindMediaType     = &problemKind{"/problems/unsupported-media-type", http.StatusUnsupportedMediaType, "Unsupported media type"}
	kindInvalidRoll   = &problemKind{"/problems/invalid-roll", http.StatusUnprocessableEntity, "Invalid roll"}
	kindInvalidRules  = &problemKind{"/problems/invalid-ruleset", http.StatusUnprocessableEntity, "Invalid ruleset"}
	kindInvalidMove   = &problemKind{"/problems/invalid-move", http.StatusUnprocessableEntity, "Not allowed by the Battleship Royale rules"}
	kindInvalid       = &problemKind{"/problems/invalid-request", http.StatusUnprocessableEntity, "Invalid request"}
	kindInsufficient  = &problemKind{"/problems/insufficient-funds", http.StatusUnprocessableEntity, "Insufficient funds"}
	kindPotNotEmpty   = &problemKind{"/problems/pot-not-empty", http.StatusConflict, "The pot is not empty"}
	kindNotOwed       = &problemKind{"/problems/not-owed", http.StatusUnprocessableEntity, "More than is owed"}
	kindClaimAnswered = &problemKind{"/problems/claim-answered", http.StatusConflict, "The payment claim was answered already"}
	kindHistory       = &problemKind{"/problems/history-broken", http.StatusConflict, "The table's history does not replay"}
	kindUnavailable   = &problemKind{"/problems/unavailable", http.StatusServiceUnavailable, "Service unavailable"}
	kindTooMany       = &problemKind{"/problems/too-many-requests", http.StatusTooManyRequests, "Too many requests"}
	kindInternal      = &problemKind{"/problems/internal", http.StatusInternalServerError, "Internal error"}
	errNotFoundRoute  = &requestError{kindNotFound, "no such endpoint"}
	errMethodNotAllow = &requestError{kindMethod, "this endpoint does not take that method"}
)

// fail builds a request error of the given kind.
func fail(kind *problemKind, detail string) error {
	return &requestError{kind: kind, detail: detail}
}

// problemFor maps any error to its problem document. It is the one place an
// error becomes an HTTP status.
func problemFor(err error) Problem {
	var re *requestError
	if errors.As(err, &re) {
		return re.kind.problem(re.detail)
	}
	if p, ok := domainProblem(err); ok {
		return p
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			return kindNotFound.problem(errNotFoundRoute.detail)
		case http.StatusMethodNotAllowed:
			return kindMethod.problem(errMethodNotAllow.detail)
		case http.StatusRequestEntityTooLarge:
			return kindTooLarge.problem("the body is larger than the limit")
		case http.StatusUnsupportedMediaType:
			return kindMediaType.problem("send application/json")
		}
		if he.Code >= 400 && he.Code < 500 {
			return Problem{Type: kindMalformed.typ, Title: http.StatusText(he.Code), Status: he.Code, Detail: http.StatusText(he.Code)}
		}
	}
	return kindInternal.problem("something went wrong on our side; nothing was changed")
}

// problem fills in a problem document of this kind.
func (k *problemKind) problem(detail string) Problem {
	return Problem{Type: k.typ, Title: k.title, Status: k.status, Detail: detail}
}

// errorHandler is Echo's HTTPErrorHandler: every error leaves as problem+json.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
			// The phone went away (it gave up, or the page moved on) and
			// its request was cancelled: no answer reaches anyone, and
			// nothing went wrong on this side.
			log.Debug("request given up by the client", "method", c.Request().Method, "path", c.Request().URL.Path)
			return
		}
		p := problemFor(err)
		p.Instance = c.Request().URL.Path
		if p.Status >= 500 || p.logged {
			log.Error("request failed", "method", c.Request().Method, "path", p.Instance, "err", err)
		}
		writeProblem(c, p)
	}
}

// unavailableRetryAfter is the Retry-After of every 503, in seconds: the database
// restarting, out of connections or busy is usually back within seconds.
const unavailableRetryAfter = "2"

// writeProblem sends a problem document; a 503 says when to try again,
// and a 413 closes the connection after it.
func writeProblem(c echo.Context, p Problem) {
	body, _ := json.Marshal(p)
	h := c.Response().Header()
	if p.Status == http.StatusServiceUnavailable && h.Get("Retry-After") == "" {
		h.Set("Retry-After", unavailableRetryAfter)
	}
	if p.Status == http.StatusRequestEntityTooLarge {
		// The body was not read, or not to its end. On a connection kept
		// open, net/http reads what is left of it before it sends the
		// answer, so as to find the next request: a client that holds the
		// body back would hear nothing until the server's read timeout.
		// On a connection that closes, the answer goes out at once.
		h.Set(echo.HeaderConnection, "close")
	}
	h.Set(echo.HeaderContentType, problemMediaType)
	c.Response().WriteHeader(p.Status)
	_, _ = c.Response().Write(body)
}
