package api

import (
	"io"
	"net/http"
	"testing"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// BenchmarkHTTPRound plays whole rounds of eight players through the HTTP
// API on one table: each op is one round (start with antes, eight whole
// turns, settlement), nine requests. With -benchtime=Nx it also shows how
// the cost of a round grows as the table's history does.
func BenchmarkHTTPRound(b *testing.B) {
	c := newClient(b, New(Config{Tables: table.New(dbtest.Pool(b), seal.Random(), nil)}))
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	var tb apiTable
	{
		r := c.do(b, req{method: http.MethodPost, path: "/v1/tables", body: map[string]any{"preset": "classic", "players": names}})
		if r.status != http.StatusCreated {
			b.Fatalf("create: %d %s", r.status, r.body)
		}
		var out struct {
			Table struct {
				ID      int64 `json:"id"`
				Players []struct {
					ID int64 `json:"id"`
				} `json:"players"`
			} `json:"table"`
			HostToken string `json:"hostToken"`
		}
		r.decode(b, &out)
		tb = apiTable{ID: out.Table.ID, Host: out.HostToken}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r := c.do(b, req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host})
		if r.status != http.StatusCreated {
			b.Fatalf("round %d: %d %s", i+1, r.status, r.body)
		}
		var rd struct {
			Number  int     `json:"number"`
			Players []int64 `json:"players"`
		}
		r.decode(b, &rd)
		for k, p := range rd.Players {
			// Distinct scores, so every round has one winner.
			cargo := 2 + k%6
			r := c.do(b, req{method: http.MethodPost, path: tb.path("/rounds/%d/turns", rd.Number), token: tb.Host,
				body: map[string]any{"player": p, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, cargo - 1}}}}})
			if r.status != http.StatusCreated {
				b.Fatalf("round %d turn %d: %d %s", rd.Number, k, r.status, r.body)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/9, "ns/request")
}

// BenchmarkHTTPHistory reads the history (GET rounds, all 100 in one page)
// and the audit of a table that has played 100 rounds of eight players:
// what the History tab asks for. Both replay every round through the
// engine.
func BenchmarkHTTPHistory(b *testing.B) {
	c := newClient(b, New(Config{Tables: table.New(dbtest.Pool(b), seal.Random(), nil)}))
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	r := c.do(b, req{method: http.MethodPost, path: "/v1/tables", body: map[string]any{"preset": "classic", "players": names}})
	var out struct {
		Table struct {
			ID int64 `json:"id"`
		} `json:"table"`
		HostToken string `json:"hostToken"`
	}
	r.decode(b, &out)
	tb := apiTable{ID: out.Table.ID, Host: out.HostToken}
	for range 100 {
		var rd struct {
			Number  int     `json:"number"`
			Players []int64 `json:"players"`
		}
		c.do(b, req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host}).decode(b, &rd)
		for k, p := range rd.Players {
			c.do(b, req{method: http.MethodPost, path: tb.path("/rounds/%d/turns", rd.Number), token: tb.Host,
				body: map[string]any{"player": p, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, k%6 + 1}}}}})
		}
	}
	// Plain HTTP, without the test client's check of each response against
	// openapi.yaml (which alone costs more than the server on big pages).
	for name, path := range map[string]string{"rounds": "/rounds?limit=100", "audit": "/audit"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				hr, _ := http.NewRequest(http.MethodGet, c.base+tb.path("%s", path), nil)
				hr.Header.Set("Authorization", "Bearer "+tb.Host)
				res, err := http.DefaultClient.Do(hr)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("%s: %d", path, res.StatusCode)
				}
			}
		})
	}
}
