// Package api is Tally's HTTP interface, as openapi.yaml at the root of the
// repository describes it. It only speaks HTTP: a handler decodes the
// request, makes one call on the table service (package table), or on the
// rules (package game) for the stateless rules endpoints, and writes the
// answer or the error back. It never reaches the ledger or the database
// but through the service; who may do what, and what each token may see,
// is decided there. How HTTP says what happened is decided here: each
// write's status, and its value in JSON (jsonAnswer, the encoder a write's
// table.Key carries, so that the answer stored with an Idempotency-Key is
// this package's).
package api

import (
	"log/slog"
	"net"
	"net/netip"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/tally-dice/tally/api/web"
	"github.com/tally-dice/tally/table"
)

// Config is what the API needs from the process that runs it.
type Config struct {
	Tables *table.Service
	Log    *slog.Logger
	// Done, when closed, ends the live streams so a graceful shutdown does
	// not wait for phones to hang up.
	Done <-chan struct{}
	// HeavyLimits bound the audits, receipts and ledger exports of a token;
	// the zero value is DefaultHeavyLimits.
	HeavyLimits HeavyLimits
	// StreamSync is how often live streams sync (and check their token
	// again); 15 seconds when zero.
	StreamSync time.Duration
	// JoinLimits bound the guessing of join codes; the zero value is
	// DefaultJoinLimits.
	JoinLimits JoinLimits
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the
	// client. Empty, the connection's own address is the client's.
	TrustedProxies []netip.Prefix
	// PublicURL is the address the app puts in join, share and recovery
	// links (tallyd's --public-url, such as https://tally.example.com).
	// Empty, the app uses the address its page was opened with.
	PublicURL string
}

// server holds the dependencies every handler shares.
type server struct {
	tables  *table.Service
	log     *slog.Logger
	metrics *metrics
	done    <-chan struct{}
	// syncEvery is how often live streams sync.
	syncEvery time.Duration
	heavy     HeavyLimits
	join      *joinLimiter
	publicURL string
}

// New builds the Echo server with every route of openapi.yaml.
func New(cfg Config) *echo.Echo {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	s := &server{tables: cfg.Tables, log: cfg.Log, metrics: newMetrics(), done: cfg.Done, syncEvery: cfg.StreamSync, heavy: cfg.HeavyLimits,
		join: newJoinLimiter(cfg.JoinLimits, cfg.Log, time.Now), publicURL: cfg.PublicURL}
	if s.syncEvery <= 0 {
		s.syncEvery = syncEvery
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = errorHandler(cfg.Log)
	e.IPExtractor = clientAddress(cfg.TrustedProxies)
	e.Use(secureHeaders)
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{DisableStackAll: true}))
	e.Use(s.metrics.middleware)
	e.Use(limitBody)
	s.routes(e)
	return e
}

// routes is the route table, one line per endpoint, in the order of
// openapi.yaml.
func (s *server) routes(e *echo.Echo) {
	v1 := e.Group("/v1")
	v1.GET("/presets", s.listPresets)
	v1.POST("/check-turn", s.checkTurn)
	v1.POST("/odds", s.advise)
	v1.GET("/receipt-key", s.receiptKey)
	v1.POST("/tables", s.createTable)
	// A join code is the only secret between a stranger and a seat: both
	// routes that take one share the limits against guessing.
	v1.POST("/join", s.joinTable, s.join.middleware)
	v1.GET("/join/:code", s.invite, s.join.middleware)
	// A host recovery code is as much a secret as a join code: its
	// guessing shares their limits.
	v1.POST("/host-recovery", s.recoverHost, s.join.middleware)

	// The reads that cost most share a limit per token.
	heavy := heavyLimit(s.heavy)
	v1.POST("/crews", s.createCrew)
	// A crew is a table whose game is crew: :crewId is its table id.
	cr := v1.Group("/crews/:crewId", authenticateBy("crewId"))
	cr.GET("", s.getCrew)
	cr.POST("/nights", s.createNight)
	cr.POST("/nights/:number/roll", s.rollNight)
	cr.GET("/stats", s.crewStats, heavy)

	t := v1.Group("/tables/:tableId", s.authenticate)
	t.GET("", s.getTable)
	t.POST("/close", s.closeTable)
	t.POST("/players", s.seatPlayer)
	t.POST("/players/:playerId/leave", s.leaveTable)
	t.POST("/players/:playerId/release", s.releaseSeat)
	t.POST("/host-recovery", s.offerRecovery)
	t.GET("/rounds", s.listRounds)
	t.POST("/rounds", s.startRound)
	t.GET("/rounds/:number", s.getRound)
	t.POST("/rounds/:number/actions", s.recordAction)
	t.POST("/rounds/:number/turns", s.recordTurn)
	t.POST("/rounds/:number/take-back", s.takeBack)
	t.POST("/rounds/:number/reverse", s.reverseRound)
	t.POST("/royale", s.startRoyale)
	t.GET("/royale/:number", s.getRoyale)
	t.POST("/royale/:number/actions", s.royaleAct)
	t.POST("/royale/:number/abandon", s.abandonRoyale)
	t.GET("/balances", s.getBalances)
	t.GET("/ledger", s.getLedger)
	t.GET("/ledger.csv", s.exportLedger, heavy)
	t.GET("/statement.html", s.printStatement, heavy)
	t.POST("/deposits", s.deposit)
	t.POST("/withdrawals", s.withdraw)
	t.GET("/settle-up", s.settleUp)
	t.POST("/payments", s.recordPayment)
	t.PUT("/unit-value", s.setUnitValue)
	t.GET("/handles", s.listHandles)
	t.PUT("/handles/:method", s.putHandle)
	t.DELETE("/handles/:method", s.deleteHandle)
	t.GET("/epc-qr", s.epcQR, heavy)
	t.POST("/claims", s.sendClaim)
	t.POST("/claims/:number/confirm", s.confirmClaim)
	t.POST("/claims/:number/refuse", s.refuseClaim)
	t.POST("/ledger/:number/reverse", s.reverseEntry)
	t.GET("/events", s.listEvents)
	t.GET("/audit", s.auditTable, heavy)
	t.GET("/receipt", s.getReceipt, heavy)
	t.GET("/stream", s.stream)

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metrics.handler())

	// The phone web app (package web): index.html at / and its assets.
	app := echo.WrapHandler(web.NewHandler(s.publicURL))
	e.GET("/", app)
	e.GET("/app/*", app)
}

// clientAddress is where a request comes from. X-Forwarded-For, which any
// client can write, is believed only from a trusted proxy, so the join
// limits cannot be dodged with a header; with no proxy trusted, the
// connection's own address is the client's.
func clientAddress(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	// Echo trusts loopback, link-local and private addresses by default;
	// only the proxies named are trusted here.
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		p = p.Masked()
		opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
