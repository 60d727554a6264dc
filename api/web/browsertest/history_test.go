package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// post sends a write as the host and decodes its answer into out. A nil
// body sends none (a JSON null is no body the contract allows).
func post(t *testing.T, base, token, path string, body, out any) {
	t.Helper()
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(b))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		msg, _ := io.ReadAll(res.Body)
		t.Fatalf("POST %s: %d %s", path, res.StatusCode, msg)
	}
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHistoryShowsEveryRound: the History tab reads the rounds a page at a
// time and shows every one of them, the first and the last of a night
// longer than a page.
func TestHistoryShowsEveryRound(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	const rounds = 101 // the app asks for 100 a page
	for range rounds {
		var rd struct {
			Number  int     `json:"number"`
			Players []int64 `json:"players"`
		}
		post(t, srv.URL, m.HostToken, fmt.Sprintf("/v1/tables/%d/rounds", m.Table.ID), nil, &rd)
		for k, p := range rd.Players {
			post(t, srv.URL, m.HostToken, fmt.Sprintf("/v1/tables/%d/rounds/%d/turns", m.Table.ID, rd.Number),
				map[string]any{"player": p, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, k + 2}}}}, nil)
		}
	}
	host := newPhone(t, startBrowser(t), srv.URL, "host")
	host.hostOf(m)
	host.tap(`[data-testid=go-history]`)
	host.waitText(`[data-testid=audit]`, "Audit: all checks pass")
	host.waitFor("the last round in the history", fmt.Sprintf(`!!document.querySelector('[data-testid=turns-%d]')`, rounds))
	if n := eval[int](host, `document.querySelectorAll('[data-testid^=turns-]').length`); n != rounds {
		t.Fatalf("the history shows %d rounds, want %d", n, rounds)
	}
	if !eval[bool](host, `!!document.querySelector('[data-testid=turns-1]')`) {
		t.Fatal("the history does not show round 1")
	}
}
