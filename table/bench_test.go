package table

import (
	"strconv"
	"testing"

	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
)

// BenchmarkRequest plays whole bar rounds of four players through the
// service, one request after another on one table, with an
// Idempotency-Key on every write as phones send them; an op is one request
// (a round start or a whole turn), its cost the service's Go side and the
// database's together.
func BenchmarkRequest(b *testing.B) {
	f := newFixture(b, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy", "Dee"}})
	dice := [][]int{{6, 5, 4, 3, 2}, {6, 5, 4, 2, 1}, {6, 5, 4, 3, 3}, {6, 5, 4, 1, 1}}
	key := 0
	next := func(status int) Key {
		key++
		return keyed("k"+strconv.Itoa(key), []byte{byte(key)}, status)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; {
		r, err := f.svc.StartRound(f.ctx, f.host, next(201), StartRoundInput{})
		if err != nil {
			b.Fatal(err)
		}
		n++
		rd := r.Value.(RoundView)
		for i := 0; rd.Status == statusPlaying && n < b.N; i++ {
			r, err = f.svc.SubmitTurn(f.ctx, f.host, next(201), rd.Number, TurnInput{Player: rd.Turn,
				Rolls: []game.Roll{{Dice: dice[i%len(dice)]}}})
			if err != nil {
				b.Fatal(err)
			}
			n++
			rd = r.Value.(RoundView)
		}
		if rd.Status == statusPlaying {
			break
		}
	}
}

// BenchmarkAudit audits a long night (300 bar rounds of four players):
// "full" replays every round each time, as every audit did before
// checkpoints; "again" is the second audit of an unchanged table, which a
// sealed checkpoint lets skip the replay.
func BenchmarkAudit(b *testing.B) {
	f := newFixture(b, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy", "Dee"}})
	dice := [][]int{{6, 5, 4, 3, 2}, {6, 5, 4, 2, 1}, {6, 5, 4, 3, 3}, {6, 5, 4, 1, 1}}
	for round := 0; round < 300; round++ {
		r, err := f.svc.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
		noErr(b, err)
		rd := r.Value.(RoundView)
		for i := 0; rd.Status == statusPlaying; i++ {
			r, err = f.svc.SubmitTurn(f.ctx, f.host, Key{}, rd.Number, TurnInput{Player: rd.Turn,
				Rolls: []game.Roll{{Dice: dice[(i+round)%len(dice)]}}})
			noErr(b, err)
			rd = r.Value.(RoundView)
		}
	}
	for _, c := range []struct {
		name string
		q    AuditQuery
	}{{"full", AuditQuery{Full: true}}, {"again", AuditQuery{}}} {
		b.Run(c.name, func(b *testing.B) {
			rep, err := f.svc.Audit(f.ctx, f.host, c.q) // leaves the checkpoint
			if err != nil || !rep.OK {
				b.Fatalf("%+v %v", rep, err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				rep, err = f.svc.Audit(f.ctx, f.host, c.q)
				if err != nil || !rep.OK {
					b.Fatalf("%+v %v", rep, err)
				}
			}
			b.ReportMetric(float64(rep.Replayed), "rounds-replayed")
			b.ReportMetric(float64(rep.Events), "events")
		})
	}
}

// BenchmarkRoyaleRequest plays advanced Battleship Royale games of four
// players through the service, one request after another, as the host
// recording for players without phones: an op is one write (a roll, a
// volley or the end of a turn; each game's start and fleets are set up
// outside the timer). Each write replays the game so far, so this is the
// cost of a request over a whole game, early and late.
func BenchmarkRoyaleRequest(b *testing.B) {
	f := newFixture(b, NewTable{Game: GameRoyale, Royale: &royale.Options{Mode: royale.Advanced}, Players: []string{"Ann", "Bob", "Cy", "Dee"}})
	key := 0
	next := func() Key {
		key++
		return keyed("k"+strconv.Itoa(key), []byte{byte(key), byte(key >> 8)}, 200)
	}
	var v RoyaleView
	newGame := func() {
		r, err := f.svc.StartRoyale(f.ctx, f.host, Key{}, RoyaleStartInput{})
		noErr(b, err)
		v = r.Value.(RoyaleView)
		for _, p := range f.players {
			_, err = f.svc.RoyaleAct(f.ctx, f.host, Key{}, v.Number, RoyaleActionInput{Player: p, Kind: actHold})
			noErr(b, err)
			r, err = f.svc.RoyaleAct(f.ctx, f.host, Key{}, v.Number, RoyaleActionInput{Player: p, Kind: royale.ActKeep, Discard: []int{3, 4}})
			noErr(b, err)
			v = r.Value.(RoyaleView)
		}
	}
	cell := 0
	act := func(in RoyaleActionInput) {
		r, err := f.svc.RoyaleAct(f.ctx, f.host, next(), v.Number, in)
		noErr(b, err)
		v = r.Value.(RoyaleView)
	}
	b.StopTimer()
	newGame()
	b.ReportAllocs()
	b.StartTimer()
	for n := 0; n < b.N; n += 3 {
		if v.Phase == royale.PhaseOver {
			b.StopTimer()
			cell = 0
			newGame()
			b.StartTimer()
		}
		turn := v.Turn
		act(RoyaleActionInput{Player: turn, Kind: royale.ActRoll, Die: 3})
		var volley []string
		for len(volley) < v.ShotsLeft && cell < royale.Size*royale.Size {
			volley = append(volley, royale.Cell{Row: cell / royale.Size, Col: cell % royale.Size}.String())
			cell++
		}
		act(RoyaleActionInput{Player: turn, Kind: royale.ActShoot, Cells: volley})
		if v.Phase == royale.PhasePlaying && v.Turn == turn {
			act(RoyaleActionInput{Player: turn, Kind: royale.ActEnd})
		}
	}
}
