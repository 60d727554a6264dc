package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	mrand "math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/gametest"
)

// loadResult is what the clients measured while counting.
type loadResult struct {
	Elapsed   time.Duration
	Turns     int
	Rounds    int
	Errors    int
	FirstErr  string
	Latencies map[string][]time.Duration // by endpoint
	CPU       cpuSample                  // while counting (tallyd and PostgreSQL with --tallyd)
	Games     bool                       // Battleship Royale: Rounds counts games
}

// phases of a load run: warming up, counting, stopped.
const (
	warming int32 = iota
	counting
	stopped
)

// playRounds runs clients, each at a table of its own, playing whole bar
// rounds of four players: start a round (the antes), then each player's
// whole turn, as the round says whose turn it is, until it settles.
func playRounds(ctx context.Context, e *env, clients int, warmup, d time.Duration) (loadResult, error) {
	rs, err := game.NewRuleset("bar", game.Options{})
	if err != nil {
		return loadResult{}, err
	}
	table := map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy", "Dee"}}
	return drive(ctx, e, clients, warmup, d, table, func(t *benchTable, rng *mrand.Rand, phase *atomic.Int32, res *loadResult) {
		t.playRound(ctx, rs, rng, phase, res)
	})
}

// drive runs clients, each at a table of its own made from body, calling
// play over and over until the measurement ends; only what happens after
// warmup counts.
func drive(ctx context.Context, e *env, clients int, warmup, d time.Duration, body map[string]any,
	play func(*benchTable, *mrand.Rand, *atomic.Int32, *loadResult)) (loadResult, error) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: clients * 2, MaxIdleConnsPerHost: clients * 2,
		DisableCompression: true}, Timeout: 30 * time.Second}
	tables := make([]*benchTable, clients)
	var err error
	for i := range tables {
		if tables[i], err = newBenchTable(ctx, hc, e.url, i, body); err != nil {
			return loadResult{}, err
		}
	}
	var phase atomic.Int32
	var mu sync.Mutex
	res := loadResult{Latencies: map[string][]time.Duration{}}
	var wg sync.WaitGroup
	for i, t := range tables {
		wg.Go(func() {
			rng := mrand.New(mrand.NewPCG(uint64(i), 42))
			local := loadResult{Latencies: map[string][]time.Duration{}}
			for phase.Load() != stopped && ctx.Err() == nil {
				play(t, rng, &phase, &local)
			}
			mu.Lock()
			res.Turns += local.Turns
			res.Rounds += local.Rounds
			res.Errors += local.Errors
			if res.FirstErr == "" {
				res.FirstErr = local.FirstErr
			}
			for k, v := range local.Latencies {
				res.Latencies[k] = append(res.Latencies[k], v...)
			}
			mu.Unlock()
		})
	}
	time.Sleep(warmup)
	phase.Store(counting)
	start, before := time.Now(), e.sampleCPU()
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
	phase.Store(stopped)
	res.Elapsed, res.CPU = time.Since(start), e.sampleCPU().sub(before)
	wg.Wait()
	return res, ctx.Err()
}

// benchTable is one client's table.
type benchTable struct {
	hc   *http.Client
	base string
	id   int64
	host string
	keyN int
	tag  string
}

func newBenchTable(ctx context.Context, hc *http.Client, base string, i int, body map[string]any) (*benchTable, error) {
	t := &benchTable{hc: hc, base: base, tag: randomTag()}
	var created struct {
		Table struct {
			ID int64 `json:"id"`
		} `json:"table"`
		HostToken string `json:"hostToken"`
	}
	body = maps.Clone(body)
	body["name"] = fmt.Sprintf("bench %d", i)
	if _, status, err := t.post(ctx, "/v1/tables", body, &created); err != nil || status != http.StatusCreated {
		return nil, fmt.Errorf("create a table: %d %v", status, err)
	}
	t.id, t.host = created.Table.ID, created.HostToken
	return t, nil
}

// roundState is what the benchmark reads of a round's answer.
type roundState struct {
	Number int    `json:"number"`
	Status string `json:"status"`
	Turn   int64  `json:"turn"`
}

// playRound plays one round to its settlement.
func (t *benchTable) playRound(ctx context.Context, rs game.Ruleset, rng *mrand.Rand, phase *atomic.Int32, res *loadResult) {
	var rd roundState
	if !t.timed(ctx, phase, res, "POST /rounds", fmt.Sprintf("/v1/tables/%d/rounds", t.id), nil, &rd) {
		return
	}
	for rd.Status == "playing" && phase.Load() != stopped {
		body := map[string]any{"player": rd.Turn, "rolls": gametest.RandomTurn(rng, rs)}
		if !t.timed(ctx, phase, res, "POST /rounds/{n}/turns", fmt.Sprintf("/v1/tables/%d/rounds/%d/turns", t.id, rd.Number), body, &rd) {
			return
		}
		if phase.Load() == counting {
			res.Turns++
		}
	}
	if rd.Status == "settled" && phase.Load() == counting {
		res.Rounds++
	}
}

// timed sends one write and records its latency while counting. A failed
// request is counted and the round abandoned: the next starts afresh (a
// round left open is refused, which resynchronizes the client).
func (t *benchTable) timed(ctx context.Context, phase *atomic.Int32, res *loadResult, endpoint, path string, body, out any) bool {
	return t.timedAs(ctx, phase, res, http.StatusCreated, endpoint, path, body, out)
}

// timedAs is timed for a write whose success is status.
func (t *benchTable) timedAs(ctx context.Context, phase *atomic.Int32, res *loadResult, want int, endpoint, path string, body, out any) bool {
	start := time.Now()
	raw, status, err := t.post(ctx, path, body, out)
	took := time.Since(start)
	if phase.Load() == counting {
		res.Latencies[endpoint] = append(res.Latencies[endpoint], took)
	}
	if err != nil || status != want {
		if status == http.StatusConflict && endpoint == "POST /rounds" {
			// A round is open from an abandoned attempt: play it.
			return t.resume(ctx, out)
		}
		if phase.Load() == counting {
			res.Errors++
			if res.FirstErr == "" {
				res.FirstErr = fmt.Sprintf("%s: %d %v %s", endpoint, status, err, raw)
			}
		}
		return false
	}
	return true
}

// resume reads the round left open.
func (t *benchTable) resume(ctx context.Context, out any) bool {
	var tbl struct {
		CurrentRound int `json:"currentRound"`
	}
	if err := t.get(ctx, fmt.Sprintf("/v1/tables/%d", t.id), &tbl); err != nil || tbl.CurrentRound == 0 {
		return false
	}
	return t.get(ctx, fmt.Sprintf("/v1/tables/%d/rounds/%d", t.id, tbl.CurrentRound), out) == nil
}

func (t *benchTable) post(ctx context.Context, path string, body, out any) ([]byte, int, error) {
	var rd io.Reader = http.NoBody
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, 0, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.base+path, rd)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	t.keyN++
	key := fmt.Sprintf("%s-%d", t.tag, t.keyN)
	if t.host == "" {
		// Making a table needs a key of 128 random bits.
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		key = hex.EncodeToString(b)
	}
	req.Header.Set("Idempotency-Key", key)
	if t.host != "" {
		req.Header.Set("Authorization", "Bearer "+t.host)
	}
	return t.do(req, out)
}

func (t *benchTable) get(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+t.host)
	_, status, err := t.do(req, out)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("GET %s: %d", path, status)
	}
	return err
}

func (t *benchTable) do(req *http.Request, out any) ([]byte, int, error) {
	res, err := t.hc.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, res.StatusCode, err
	}
	if res.StatusCode < 300 && out != nil {
		err = json.Unmarshal(raw, out)
	}
	return raw, res.StatusCode, err
}

func randomTag() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
