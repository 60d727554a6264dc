package browsertest

import (
	"fmt"
	"maps"
	"strings"
	"testing"
)

// TestCrewNightsAddUp: Ann starts a crew of four from her phone; Bob joins
// it with the code on his, Cy and Dan through the API. Ann makes the first
// night from the crew page, Bob joins it with "Join tonight", and after its
// rounds Ann closes it: the crew's running balances are the night's. Bob
// makes the second night (without Dan), Ann joins it, Bob closes it: the
// running balances are the sum of both nights. Bob's phone says "You owe
// Ann 8 chips", Ann marks it paid and Bob is square. The first night is
// shared as a picture and a text naming its winner, and the crew's season
// table, Ann's money night by night and the dice fairness card show the
// figures the server computed.
func TestCrewNightsAddUp(t *testing.T) {
	srv := startServer(t)
	browser := startBrowser(t)
	ann := newPhone(t, browser, srv.URL, "ann")
	ann.open("/")
	ann.tap(`[data-testid=start-crew]`)
	ann.typeInto(`input[name=name]`, "Friday crew")
	ann.typeInto(`input[name=currency]`, "chips")
	ann.typeInto(`[data-testid=crew-me]`, "Ann")
	for i, name := range []string{"Bob", "Cy", "Dan"} {
		ann.typeInto(fmt.Sprintf(`input[aria-label="member %d"]`, i+2), name)
	}
	ann.shot("start-crew")
	ann.tap(`[data-testid=create-crew]`)
	ann.waitText(`header .role`, "You: Ann")
	ann.waitText(`[data-testid=nights]`, "No nights yet")
	code := strings.ReplaceAll(ann.text(`[data-testid=crew-code]`), "-", "")
	crew := eval[int64](ann, `Number(new URLSearchParams(location.hash.slice(1)).get('c'))`)
	ann.tap(`[data-testid=crew-invite] summary`)
	ann.shot("crew-new")

	bob := newPhone(t, browser, srv.URL, "bob")
	bob.open("/")
	bob.tap(`[data-testid=join-crew]`)
	bob.typeInto(`input[aria-label="join code"]`, code)
	bob.waitSeats()
	bob.tap(`[data-testid=open-seats] button[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")
	joinCrewAPI(t, srv.URL, code, "Cy")
	joinCrewAPI(t, srv.URL, code, "Dan")

	// Night 1: Ann's phone makes it; Bob joins it from the crew page.
	first := ann.startNight("Bob", "Cy", "Dan")
	ann.shot("night-1-invite")
	bob.open("/")
	bob.tap(`[data-testid=my-crews] a[data-crew="` + fmt.Sprint(crew) + `"]`)
	bob.waitFor("the join button", `!!document.querySelector("[data-testid=join-night]")`)
	bob.tap(`[data-testid=join-night]`)
	bob.waitText(`header .role`, "You: Bob")
	playNight(t, srv.URL, first, nightPlayers(t, srv.URL, first), "Ann", "Ann", "Cy")
	ann.closeNight()
	night1 := nightBalances(t, srv.URL, first)
	if night1["Ann"] <= 0 {
		t.Fatalf("Ann won two of three rounds and closes the night at %d", night1["Ann"])
	}

	// The night is shared: a picture drawn on the phone and a text.
	ann.tap(`[data-testid=share-night]`)
	ann.waitText(`[data-testid=share-text]`, "Winner: Ann")
	lit := eval[int](ann, `(() => { const c = document.querySelector('[data-testid=share-picture]');
	  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
	  for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 200) n++; return n; })()`)
	if lit < 5000 {
		t.Fatalf("the night's picture has %d bright pixels: it is blank", lit)
	}
	text := ann.text(`[data-testid=share-text]`)
	for _, want := range []string{"Winner: Ann (+10 chips)", "1. Ann +10 chips", "Biggest pot: 8 chips", "3 rounds played", "Who pays whom:"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the night's text does not say %q:\n%s", want, text)
		}
	}
	ann.shot("night-1-shared")

	ann.tap(`[data-testid=to-crew]`)
	ann.waitFor("night 1 added to the crew", `document.querySelector('[data-testid=night][data-status=closed]')?.textContent.includes('Added to the crew')`)
	if got := ann.crewBalances(); !maps.Equal(got, night1) {
		t.Fatalf("after night 1 the crew's balances are %v, the night's %v", got, night1)
	}
	ann.shot("crew-after-1")

	// Night 2: Bob's phone makes it without Dan; Ann joins it.
	bob.open(fmt.Sprintf("/#c=%d", crew))
	second := bob.startNight("Ann", "Cy")
	ann.open(fmt.Sprintf("/#c=%d", crew))
	ann.tap(`[data-testid=join-night]`)
	ann.waitText(`header .role`, "You: Ann")
	playNight(t, srv.URL, second, nightPlayers(t, srv.URL, second), "Cy")
	bob.closeNight()
	night2 := nightBalances(t, srv.URL, second)
	sum := maps.Clone(night1)
	for name, n := range night2 {
		sum[name] += n
	}
	ann.tap(`[data-testid=go-money]`)
	ann.tap(`[data-testid=to-crew]`)
	ann.waitFor("two nights added", `document.querySelectorAll('[data-testid=night][data-status=closed]').length === 2`)
	if got := ann.crewBalances(); !maps.Equal(got, sum) {
		t.Fatalf("after night 2 the crew's balances are %v, the sum of the nights %v", got, sum)
	}
	if want := map[string]int64{"Ann": 8, "Bob": -8, "Cy": 6, "Dan": -6}; !maps.Equal(sum, want) {
		t.Fatalf("the nights add up to %v, want %v", sum, want)
	}

	// Settle-up across nights: Bob owes Ann what he lost over both nights.
	bob.tap(`[data-testid=to-crew]`)
	bob.waitText(`[data-testid=you-owe]`, "You owe Ann 8 chips")
	bob.shot("crew-you-owe")
	ann.waitText(`[data-testid=settle]`, "Dan pays Cy 6 chips")
	ann.waitText(`[data-testid=owed-you]`, "Bob owes you 8 chips")
	ann.shot("crew-settle")
	ann.tap(`[data-testid=your-money] [data-testid=paid-me][data-payer=Bob]`)
	ann.tap(`[data-testid=paid-yes]`)
	bob.waitText(`[data-testid=square]`, "You are square")
	ann.waitFor("Bob's payment gone from the settle-up", `!document.querySelector('[data-testid=settle]').textContent.includes('Bob')`)
	bob.shot("crew-square")

	// The figures: the season table, Ann's money night by night, the dice.
	ann.tap(`[data-testid=to-stats]`)
	ann.waitText(`[data-testid=season] tbody tr`, "Ann")
	season := eval[[]string](ann, `[...document.querySelectorAll('[data-testid=season] tbody tr')].map((r) => r.dataset.name)`)
	if strings.Join(season, ",") != "Ann,Cy,Dan,Bob" {
		t.Fatalf("the season table's order is %v", season)
	}
	totals := eval[[]string](ann, `[...document.querySelectorAll('[data-testid=net-plot] circle')].map((c) => c.dataset.total)`)
	if strings.Join(totals, ",") != "10,8" {
		t.Fatalf("Ann's money night by night is plotted at %v, want 10 then 8", totals)
	}
	ann.waitFor("the table's dice tested", `document.querySelector('[data-testid=dice-check]').dataset.verdict !== 'too-few'`)
	// The card counts dice, each die of every throw once, and says how
	// often fair dice would show a face: a count, not an average.
	fair := ann.text(`[data-testid=fairness]`)
	for _, want := range []string{"dice thrown, the table’s dice ", "where fair dice would show it"} {
		if !strings.Contains(strings.ReplaceAll(fair, "'", "’"), want) {
			t.Errorf("the fairness card does not say %q: %s", want, fair)
		}
	}
	for _, wrong := range []string{"average", "throws"} {
		if strings.Contains(fair, wrong) {
			t.Errorf("the fairness card says %q: %s", wrong, fair)
		}
	}
	ann.shot("crew-stats")

	// Bob's home screen lists the crew among his crews.
	bob.open("/")
	bob.waitText(`[data-testid=my-crews]`, "Friday crew")
	bob.shot("home-crews")
}
