package api

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestARequestThePhoneGaveUpIsNoError: when a phone gives a request up
// (its fetch aborted, the page moved on), the database call under it ends
// with context.Canceled. Nobody hears an answer then, and nothing went
// wrong on the server: no 500 is written and no error is logged. The same
// error while the phone still waits is the server's own, a 500 as before.
func TestARequestThePhoneGaveUpIsNoError(t *testing.T) {
	for _, gaveUp := range []bool{true, false} {
		t.Run(fmt.Sprint("gave up ", gaveUp), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if gaveUp {
				cancel()
			}
			req := httptest.NewRequest(http.MethodGet, "/v1/tables/1", nil).WithContext(ctx)
			rec := httptest.NewRecorder()
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
			errorHandler(log)(fmt.Errorf("read table: %w", context.Canceled), echo.New().NewContext(req, rec))
			if gaveUp {
				if rec.Body.Len() != 0 || logs.Len() != 0 {
					t.Fatalf("a request the phone gave up was answered %d %s and logged %q", rec.Code, rec.Body, logs.String())
				}
				return
			}
			if rec.Code != http.StatusInternalServerError || !bytes.Contains(logs.Bytes(), []byte("request failed")) {
				t.Fatalf("a cancellation while the phone waits: answered %d, logged %q", rec.Code, logs.String())
			}
		})
	}
}
