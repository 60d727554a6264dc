package browsertest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// This file holds what the crew tests (crew_test.go) do on a phone and
// through the API: make and close a crew's nights, play their rounds, and
// read the balances a crew page and a night show.

// crewNight is a night as a phone made it: its id and its host token.
type crewNight struct {
	id    int64
	token string
}

// balance is a player's line of GET balances.
type balance struct {
	PlayerID int64  `json:"playerId"`
	Name     string `json:"name"`
	Balance  int64  `json:"balance"`
}

// joinCrewAPI claims a member's seat with the crew's code through the API.
func joinCrewAPI(t *testing.T, base, code, name string) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"code": code, "name": name})
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/join", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	req.Header.Set("Idempotency-Key", hex.EncodeToString(key))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("%s joins the crew: %d", name, res.StatusCode)
	}
}

// getAs reads a path of the API with a token and decodes its answer.
func getAs(t *testing.T, base, token, path string, out any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// startNight makes tonight's table on the crew page of p: the members
// tapped (p's own member is picked already), the classic game with an
// ante of 2. The phone lands on the night's Invite tab as its host.
func (p *phone) startNight(members ...string) crewNight {
	p.t.Helper()
	p.tap(`[data-testid=start-night]`)
	p.waitFor("the night form", `!!document.querySelector('[data-testid=create-night]')`)
	for _, m := range members {
		p.tap(fmt.Sprintf(`button.member[data-name=%q]`, m))
	}
	p.tap(`label.preset:has(input[name=preset][value=classic])`)
	p.waitFor("classic picked", `document.querySelector('input[name=preset][value=classic]').checked`)
	p.typeInto(`input[name=ante]`, "2")
	p.shot("night-form")
	p.tap(`[data-testid=create-night]`)
	p.waitText(`header .role`, "Host phone")
	id := eval[int64](p, `Number(new URLSearchParams(location.hash.slice(1)).get('t'))`)
	token := eval[string](p, fmt.Sprintf(`JSON.parse(localStorage.getItem('tally.tables'))[%d].token`, id))
	return crewNight{id: id, token: token}
}

// playNight plays one round per winner through the API with the night
// host's token: the winner's cargo is 11, everyone else's 3.
func playNight(t *testing.T, base string, n crewNight, ids map[int64]string, winners ...string) {
	t.Helper()
	for _, w := range winners {
		var rd struct {
			Number  int     `json:"number"`
			Players []int64 `json:"players"`
		}
		post(t, base, n.token, fmt.Sprintf("/v1/tables/%d/rounds", n.id), nil, &rd)
		for _, p := range rd.Players {
			cargo := []int{1, 2}
			if ids[p] == w {
				cargo = []int{6, 5}
			}
			post(t, base, n.token, fmt.Sprintf("/v1/tables/%d/rounds/%d/turns", n.id, rd.Number),
				map[string]any{"player": p, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, cargo[0], cargo[1]}}}}, nil)
		}
	}
}

// nightPlayers names the night's players by id, read with its host token.
func nightPlayers(t *testing.T, base string, n crewNight) map[int64]string {
	t.Helper()
	var tb struct {
		Players []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"players"`
	}
	getAs(t, base, n.token, fmt.Sprintf("/v1/tables/%d", n.id), &tb)
	ids := map[int64]string{}
	for _, p := range tb.Players {
		ids[p.ID] = p.Name
	}
	return ids
}

// closeNight closes the night from its host's Money tab.
func (p *phone) closeNight() {
	p.t.Helper()
	p.tap(`[data-testid=go-money]`)
	p.tap(`[data-testid=close]`)
	p.tap(`[data-testid=close-yes]`)
	p.waitText(`[data-testid=crew-night]`, "Part of the crew")
}

// crewBalances are the running balances on the crew page, by name.
func (p *phone) crewBalances() map[string]int64 {
	p.t.Helper()
	rows := eval[[][]string](p, `[...document.querySelectorAll('[data-testid=balances] li')]`+
		`.map((li) => [li.querySelector('span').firstChild.textContent, li.querySelector('b').textContent])`)
	out := map[string]int64{}
	for _, r := range rows {
		n, err := strconv.ParseInt(strings.TrimPrefix(strings.Fields(r[1])[0], "+"), 10, 64)
		if err != nil {
			p.t.Fatalf("balance row %q: %v", r, err)
		}
		out[r[0]] = n
	}
	return out
}

// nightBalances are a night's closing balances by name, read through the
// API with its host token.
func nightBalances(t *testing.T, base string, n crewNight) map[string]int64 {
	t.Helper()
	var b struct {
		Players []balance `json:"players"`
	}
	getAs(t, base, n.token, fmt.Sprintf("/v1/tables/%d/balances", n.id), &b)
	out := map[string]int64{}
	for _, p := range b.Players {
		out[p.Name] = p.Balance
	}
	return out
}
