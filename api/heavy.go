package api

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"
)

// HeavyLimits bound the reads that cost the server most (the audit, the
// receipt, the ledger as CSV) per token: a phone checking the night never
// notices, a token looping them is slowed to Every.
type HeavyLimits struct {
	Burst int
	Every time.Duration
}

// DefaultHeavyLimits: a burst of 10, then one every 2 seconds.
var DefaultHeavyLimits = HeavyLimits{Burst: 10, Every: 2 * time.Second}

// heavyLimit is the per-token limit on heavy reads. Tokens are told apart
// by their hash, so the limiter's memory holds none.
func heavyLimit(l HeavyLimits) echo.MiddlewareFunc {
	if l.Burst <= 0 || l.Every <= 0 {
		l = DefaultHeavyLimits
	}
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Every(l.Every), Burst: l.Burst, ExpiresIn: 10 * time.Minute}),
		IdentifierExtractor: func(c echo.Context) (string, error) {
			h := sha256.Sum256([]byte(auth(c).Token))
			return hex.EncodeToString(h[:16]), nil
		},
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			c.Response().Header().Set("Retry-After", strconv.Itoa(retryAfter(l.Every)))
			return fail(kindTooMany, "too many audits, receipts and ledger exports with this token; wait a moment and try again")
		},
		ErrorHandler: func(c echo.Context, err error) error {
			return fail(kindTooMany, "too many heavy reads; wait a moment and try again")
		},
	})
}
