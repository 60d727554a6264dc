package stats

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestFairnessWorked checks the dice of the worked history. Only Friday's
// first round has throws. Faces 1 to 6:
//
//	Ann 6 5 4 3 5                          0 0 1 1 2 1 =  5
//	Bob 6 2 2 1 1, 5 4 6 2                 2 3 0 1 1 2 =  9
//	Cat 6 5 4 1 2                          1 1 0 1 1 1 =  5
//	Dan 1 1 2 3 3, 2 2 3 3 1, 1 1 1 1 1    8 3 4 0 0 0 = 15
//	table                                 11 7 5 3 4 4 = 34
//
// No member has 30 throws; the table has 34, expected 34/6 each, so
// χ² = 6·Σcount²/34 - 34 = 6·236/34 - 34 = 130/17 ≈ 7.647, and
// Q(5/2, 65/17) = 0.17678962451608 (erfc closed form): fair.
func TestFairnessWorked(t *testing.T) {
	t.Parallel()
	rep, err := Compute(worked())
	if err != nil {
		t.Fatal(err)
	}
	d := rep.Dice
	members := map[Member]Faces{ann: {0, 0, 1, 1, 2, 1}, bob: {2, 3, 0, 1, 1, 2}, cat: {1, 1, 0, 1, 1, 1}, dan: {8, 3, 4, 0, 0, 0}, eve: {}}
	for _, c := range d.Members {
		if c.Faces != members[c.Member] || c.Throws != c.Faces.Total() || c.Verdict != VerdictTooFew || c.ChiSquare != 0 || c.PValue != 0 {
			t.Errorf("%s: %+v, want faces %v and no verdict", c.Name, c, members[c.Member])
		}
	}
	if got, want := d.Members[0].Summary, "not enough dice yet (5 of 30)"; got != want {
		t.Errorf("Ann's summary %q, want %q", got, want)
	}
	if got, want := d.Members[4].Explanation, "No dice counted yet for Eve's dice; it takes 30 before luck and loaded dice can be told apart."; got != want {
		t.Errorf("Eve's explanation %q, want %q", got, want)
	}
	if d.Checked != 0 || d.FalseAlarm != 0 || d.Level != 0.01 {
		t.Errorf("checked %d, false alarm %v, level %v; want 0, 0, 0.01", d.Checked, d.FalseAlarm, d.Level)
	}
	tb := d.Table
	if tb.Faces != (Faces{11, 7, 5, 3, 4, 4}) || tb.Throws != 34 || tb.Verdict != VerdictFair {
		t.Errorf("table: %+v", tb)
	}
	if math.Abs(tb.ChiSquare-130.0/17) > 1e-12 || math.Abs(tb.PValue-0.17678962451608) > 1e-12 {
		t.Errorf("table: χ² %v, p %v; want %v, 0.17678962451608", tb.ChiSquare, tb.PValue, 130.0/17)
	}
	// 11 of 34 is 0.3235, within 0.015 of a third; p 0.177 is 2 in 10.
	want := "Of 34 dice thrown, the table's dice showed 1 about a third of the time: 11 times, where fair dice would show it about 6 times (a sixth of 34). " +
		"Fair dice come out at least this uneven about 2 times in 10: consistent with fair dice."
	if tb.Summary != "consistent with fair dice" || tb.Explanation != want {
		t.Errorf("table says %q: %q\nwant %q", tb.Summary, tb.Explanation, want)
	}
}

// simulated is one night in which each of members throws at least dice dice,
// in throws of one to five dice, each die showing a 6 with chance six and
// any other face evenly (a fair die when six is 1/6).
func simulated(seed uint64, members, dice int, six float64) History {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	face := func() int {
		if rng.Float64() < six {
			return 6
		}
		return 1 + rng.IntN(5)
	}
	h := History{Nights: []Night{{Table: int64(seed), Preset: "bar"}}}
	for m := range members {
		h.Members = append(h.Members, Person{ID: Member(m + 1), Name: string(rune('A' + m))})
	}
	thrown := make([]int, members)
	for number := 1; slices.Min(thrown) < dice; number++ {
		r := Round{Number: number}
		for m := range members {
			if thrown[m] >= dice {
				continue
			}
			faces := make([]int, 1+rng.IntN(5))
			for i := range faces {
				faces[i] = face()
			}
			thrown[m] += len(faces)
			r.Throws = append(r.Throws, Throw{Member: Member(m + 1), Faces: faces})
		}
		h.Nights[0].Rounds = append(h.Nights[0].Rounds, r)
	}
	return h
}

// TestFairDicePass checks that fair dice pass for a fixed set of seeds: four
// members, at least 600 throws each, ten histories. At the 1% level about
// one set in a hundred fails by chance, so the seeds are fixed rather than
// drawn; TestFairDiceFlagRate checks the rate itself.
func TestFairDicePass(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 10; seed++ {
		rep, err := Compute(simulated(seed, 4, 600, 1.0/6))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range append(rep.Dice.Members, rep.Dice.Table) {
			if c.Throws < 600 || c.Verdict != VerdictFair || c.PValue < Level {
				t.Errorf("seed %d, %s: %d throws %v, χ² %.2f, p %.4f: %s", seed, c.Name, c.Throws, c.Faces, c.ChiSquare, c.PValue, c.Verdict)
			}
		}
		if rep.Dice.Checked != 4 || math.Abs(rep.Dice.FalseAlarm-(1-math.Pow(0.99, 4))) > 1e-15 {
			t.Errorf("seed %d: checked %d, false alarm %v", seed, rep.Dice.Checked, rep.Dice.FalseAlarm)
		}
	}
}

// TestFairDiceFlagRate checks that the test flags fair dice at its stated
// rate: over 1,000 fair histories of 600 throws, about 10 are flagged. The
// count is binomial (mean 10, standard deviation 3.1); the bounds are about
// three deviations out. The p-values of fair dice are also spread evenly:
// about 5% fall below 0.05 and half below 0.5.
func TestFairDiceFlagRate(t *testing.T) {
	t.Parallel()
	const runs = 1000
	var flagged, below5, belowHalf int
	for seed := uint64(1); seed <= runs; seed++ {
		rep, err := Compute(simulated(seed, 1, 600, 1.0/6))
		if err != nil {
			t.Fatal(err)
		}
		c := rep.Dice.Members[0]
		if c.Verdict == VerdictFlagged {
			flagged++
		}
		if c.PValue < 0.05 {
			below5++
		}
		if c.PValue < 0.5 {
			belowHalf++
		}
	}
	t.Logf("of %d fair histories: %d flagged, %d with p < 0.05, %d with p < 0.5", runs, flagged, below5, belowHalf)
	if flagged < 1 || flagged > 20 {
		t.Errorf("%d of %d fair histories flagged at 1%%, want about 10", flagged, runs)
	}
	if below5 < 30 || below5 > 72 {
		t.Errorf("%d of %d fair histories have p < 0.05, want about 50", below5, runs)
	}
	if belowHalf < 450 || belowHalf > 550 {
		t.Errorf("%d of %d fair histories have p < 0.5, want about 500", belowHalf, runs)
	}
}

// TestLoadedDiceFlagged checks that a die showing 6 a third of the time is
// caught over 600 throws: χ² is about 120 on average there, p about 1e-24.
func TestLoadedDiceFlagged(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 5; seed++ {
		rep, err := Compute(simulated(seed, 1, 600, 1.0/3))
		if err != nil {
			t.Fatal(err)
		}
		c := rep.Dice.Members[0]
		if c.Verdict != VerdictFlagged || c.PValue >= 1e-6 || c.Summary != "look loaded" {
			t.Errorf("seed %d: %v, χ² %.1f, p %.3g: %s", seed, c.Faces, c.ChiSquare, c.PValue, c.Summary)
		}
		if face, _ := c.furthest(); face != 6 {
			t.Errorf("seed %d: %v: the face furthest off is %d, want 6", seed, c.Faces, face)
		}
	}
}

// TestExplanations pins the words for each verdict on counts worked by hand.
func TestExplanations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		f       Faces
		checked int
		verdict Verdict
		summary string
		text    string
	}{
		{name: "loaded: χ² 120 (see TestChiSquare), p 3.1e-24", f: Faces{80, 80, 80, 80, 80, 200}, checked: 3,
			verdict: VerdictFlagged, summary: "look loaded",
			text: "Of 600 dice thrown, Bob's dice showed 6 a third of the time: 200 times, where fair dice would show it 100 times (a sixth of 600). " +
				"Fair dice come out this uneven by chance less than once in a million times: Bob's dice look loaded."},
		// χ² = (100² + 5·20²)/100 = 120, as above: a face never shown.
		{name: "a face never shown", f: Faces{0, 120, 120, 120, 120, 120}, checked: 1,
			verdict: VerdictFlagged, summary: "look loaded",
			text: "Of 600 dice thrown, Bob's dice never showed 1, where fair dice would show it 100 times (a sixth of 600). " +
				"Fair dice come out this uneven by chance less than once in a million times: Bob's dice look loaded."},
		// χ² = (30² + 30²)/100 = 18, p = 0.00294: flagged but not beyond
		// doubt. 5 and 6 are equally far off; 5 is named. 70/600 = 0.117 is
		// within 0.015 of an eighth; 1/p = 340; 1 - 0.99³ = 3%.
		{name: "suspicious: χ² 18, p 0.0029", f: Faces{100, 100, 100, 100, 70, 130}, checked: 3,
			verdict: VerdictFlagged, summary: "look suspicious",
			text: "Of 600 dice thrown, Bob's dice showed 5 only about an eighth of the time: 70 times, where fair dice would show it 100 times (a sixth of 600). " +
				"Fair dice come out this uneven by chance about once in 340 times: Bob's dice look suspicious. " +
				"With 3 members' dice tested, there is a 3% chance that some fair set gets flagged by plain bad luck, so keep watching before you accuse anyone."},
		{name: "suspicious, the only set tested", f: Faces{100, 100, 100, 100, 70, 130}, checked: 1,
			verdict: VerdictFlagged, summary: "look suspicious",
			text: "Of 600 dice thrown, Bob's dice showed 5 only about an eighth of the time: 70 times, where fair dice would show it 100 times (a sixth of 600). " +
				"Fair dice come out this uneven by chance about once in 340 times: Bob's dice look suspicious. " +
				"Fair dice get flagged like this once in a hundred tests, so keep watching before you accuse anyone."},
		{name: "perfectly even: p = 1", f: Faces{5, 5, 5, 5, 5, 5}, checked: 1,
			verdict: VerdictFair, summary: "consistent with fair dice",
			text: "Of 30 dice thrown, Bob's dice showed 1 a sixth of the time: 5 times, where fair dice would show it 5 times (a sixth of 30). " +
				"Fair dice come out at least this uneven almost every time: consistent with fair dice."},
		{name: "one short", f: Faces{5, 5, 5, 5, 5, 4},
			verdict: VerdictTooFew, summary: "not enough dice yet (29 of 30)",
			text: "Only 29 dice counted so far for Bob's dice (each die of every throw counts); it takes 30 before luck and loaded dice can be told apart."},
		{name: "a single throw", f: Faces{0, 0, 1},
			verdict: VerdictTooFew, summary: "not enough dice yet (1 of 30)",
			text: "Only 1 die counted so far for Bob's dice (each die of every throw counts); it takes 30 before luck and loaded dice can be told apart."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := test(tc.f)
			c.explain("Bob's dice", tc.checked)
			if c.Verdict != tc.verdict || c.Summary != tc.summary || c.Explanation != tc.text {
				t.Errorf("got %s, %q:\n%q\nwant %s, %q:\n%q", c.Verdict, c.Summary, c.Explanation, tc.verdict, tc.summary, tc.text)
			}
		})
	}
}

// TestWords checks the pieces the explanations are made of.
func TestWords(t *testing.T) {
	t.Parallel()
	shares := map[float64]string{1.0 / 3: "a third", 0.32: "about a third", 0.5: "half", 0.27: "27%", 0.01: "1%", 1.0 / 6: "a sixth"}
	for share, want := range shares {
		if got := shareWords(share); got != want {
			t.Errorf("shareWords(%v) = %q, want %q", share, got, want)
		}
	}
	odds := map[float64]string{1e-9: "less than once in a million times", 0.004: "about once in 250 times",
		0.000123: "about once in 8,100 times", 0.05: "about once in 20 times", 0.1: "about once in 10 times",
		0.44: "about 4 times in 10", 0.99: "almost every time"}
	for p, want := range odds {
		if got := oddsWords(p); got != want {
			t.Errorf("oddsWords(%v) = %q, want %q", p, got, want)
		}
	}
	numbers := map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4500: "-4,500"}
	for n, want := range numbers {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
	names := []struct {
		name string
		id   Member
		want string
	}{{"Bob", 2, "Bob's"}, {"Jess", 3, "Jess'"}, {"", 7, "member 7's"}}
	for _, n := range names {
		if got := possessive(n.name, n.id); got != n.want {
			t.Errorf("possessive(%q, %d) = %q, want %q", n.name, n.id, got, n.want)
		}
	}
	if got := (Faces{1, 2, 3, 4, 5, 6}); !reflect.DeepEqual(got.Total(), 21) {
		t.Errorf("Total of %v = %d, want 21", got, got.Total())
	}
}
