package stats

import "math"

// Level is the significance level of the fairness test: a set of dice is
// flagged when fair dice would come out at least as uneven less than one
// time in a hundred (p < 0.01). It is strict on purpose: a flag points at
// a person, and a crew checks many sets of dice.
const Level = 0.01

// MinThrows is how many dice must have been thrown before the test says
// anything: 30, so that a fair die is expected to show each face at least
// five times, the usual condition for the chi-square approximation to hold.
const MinThrows = minDice

// Verdict is the outcome of the fairness test for one set of dice.
type Verdict string

// The verdicts.
const (
	VerdictTooFew  Verdict = "too-few" // fewer than MinThrows dice thrown: no verdict yet
	VerdictFair    Verdict = "fair"    // consistent with fair dice (p ≥ Level)
	VerdictFlagged Verdict = "flagged" // less even than fair dice plausibly are (p < Level)
)

// Faces counts the dice that showed each face: Faces[0] is ones, Faces[5]
// sixes. It encodes in JSON as an array of six counts.
type Faces [faceCount]int

// Total is how many dice the counts are of.
func (f Faces) Total() int {
	n := 0
	for _, c := range f {
		n += c
	}
	return n
}

// DiceCheck is the fairness test of one set of dice: a member's, or the
// whole table's (Member 0).
type DiceCheck struct {
	Member Member `json:"member,omitempty"`
	Name   string `json:"name"`
	// Throws is how many dice were thrown, one per die per throw; banked dice
	// are counted once, when they were thrown.
	Throws int   `json:"throws"`
	Faces  Faces `json:"faces"`
	// ChiSquare is Pearson's statistic against a fair die (5 degrees of
	// freedom) and PValue the chance that fair dice come out at least this
	// uneven. Both are 0 while the verdict is VerdictTooFew.
	ChiSquare float64 `json:"chiSquare"`
	PValue    float64 `json:"pValue"`
	Verdict   Verdict `json:"verdict"`
	// Summary is the verdict in a few words ("consistent with fair dice",
	// "not enough dice yet (12 of 30)"); Explanation says it to the bar.
	Summary     string `json:"summary"`
	Explanation string `json:"explanation"`
}

// Fairness is the fairness test of every member's dice and of the table's
// dice, all members together.
//
// Every test at the 1% level flags fair dice one time in a hundred by bad
// luck alone, and a crew tests one set of dice per member: with ten members
// with enough throws, the chance that at least one fair set is flagged is
// about one in ten. FalseAlarm gives that chance and the explanations of
// borderline flags say so; only a p-value far below the level (under
// 1 in 10,000) is called loaded outright.
type Fairness struct {
	Level   float64     `json:"level"`
	Table   DiceCheck   `json:"table"`
	Members []DiceCheck `json:"members"`
	// Checked is how many members' dice have enough throws to be tested.
	Checked int `json:"checked"`
	// FalseAlarm is the chance that, were every member's dice fair, at
	// least one of the Checked sets would still be flagged: 1 - 0.99^Checked.
	FalseAlarm float64 `json:"falseAlarm"`
}

// fairness counts every die thrown and tests each member's dice and the
// table's.
func fairness(people []Person, nights []Night) Fairness {
	at := make(map[Member]int, len(people))
	counts := make([]Faces, len(people))
	for i, p := range people {
		at[p.ID] = i
	}
	var all Faces
	for _, n := range nights {
		for _, r := range n.Rounds {
			for _, t := range r.Throws {
				for _, f := range t.Faces {
					counts[at[t.Member]][f-1]++
					all[f-1]++
				}
			}
		}
	}
	fr := Fairness{Level: Level, Members: make([]DiceCheck, len(people))}
	for i, p := range people {
		fr.Members[i] = test(counts[i])
		fr.Members[i].Member, fr.Members[i].Name = p.ID, p.Name
		if fr.Members[i].Verdict != VerdictTooFew {
			fr.Checked++
		}
	}
	fr.FalseAlarm = 1 - math.Pow(1-Level, float64(fr.Checked))
	fr.Table = test(all)
	fr.Table.Name = "the table"
	fr.Table.explain("the table's dice", fr.Checked)
	for i := range fr.Members {
		fr.Members[i].explain(possessive(fr.Members[i].Name, fr.Members[i].Member)+" dice", fr.Checked)
	}
	return fr
}

// test runs the chi-square test on counts of faces, once there are enough.
func test(f Faces) DiceCheck {
	c := DiceCheck{Throws: f.Total(), Faces: f, Verdict: VerdictTooFew}
	if c.Throws < MinThrows {
		return c
	}
	c.ChiSquare = chiSquare(f)
	c.PValue = chiSquareP(c.ChiSquare, freedom)
	c.Verdict = VerdictFair
	if c.PValue < Level {
		c.Verdict = VerdictFlagged
	}
	return c
}
