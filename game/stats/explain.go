package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file puts a fairness test into words a bar crowd reads at a glance:
// how many dice (each die of every throw counts once, so two throws of
// five are ten dice, not two throws), the face furthest from its fair
// share with how often fair dice would show it (a sixth of the dice: a
// count, not an average face, which for a fair die is 3.5), and how often
// fair dice come out at least that uneven.

// loadedBelow is the p-value under which flagged dice are called loaded
// rather than suspicious: far enough below Level that bad luck across a
// whole crew's dice does not explain it.
const loadedBelow = 1e-4

// explain fills in the summary and explanation of a check of subject's dice
// ("Bob's dice"), out of checked members' sets tested.
func (c *DiceCheck) explain(subject string, checked int) {
	if c.Verdict == VerdictTooFew {
		c.Summary = fmt.Sprintf("not enough dice yet (%d of %d)", c.Throws, MinThrows)
		c.Explanation = fmt.Sprintf("Only %s counted so far for %s (each die of every throw counts); it takes %d before luck and loaded dice can be told apart.",
			dice(c.Throws), subject, MinThrows)
		if c.Throws == 0 {
			c.Explanation = fmt.Sprintf("No dice counted yet for %s; it takes %d before luck and loaded dice can be told apart.", subject, MinThrows)
		}
		return
	}
	face, count := c.furthest()
	want := float64(c.Throws) / faceCount
	share := float64(count) / float64(c.Throws)
	only := ""
	if float64(count) < want {
		only = "only "
	}
	seen := fmt.Sprintf("Of %s thrown, %s showed %d %s%s of the time: %s, where fair dice would show it %s (a sixth of %s).",
		dice(c.Throws), subject, face, only, shareWords(share), times(count), fairTimes(want), thousands(c.Throws))
	if count == 0 {
		seen = fmt.Sprintf("Of %s thrown, %s never showed %d, where fair dice would show it %s (a sixth of %s).",
			dice(c.Throws), subject, face, fairTimes(want), thousands(c.Throws))
	}
	odds := oddsWords(c.PValue)
	switch {
	case c.Verdict == VerdictFair:
		c.Summary = "consistent with fair dice"
		c.Explanation = fmt.Sprintf("%s Fair dice come out at least this uneven %s: consistent with fair dice.", seen, odds)
	case c.PValue < loadedBelow:
		c.Summary = "look loaded"
		c.Explanation = fmt.Sprintf("%s Fair dice come out this uneven by chance %s: %s look loaded.", seen, odds, subject)
	default:
		c.Summary = "look suspicious"
		c.Explanation = fmt.Sprintf("%s Fair dice come out this uneven by chance %s: %s look suspicious. %s",
			seen, odds, subject, caution(checked))
	}
}

// furthest is the face whose count is furthest from its fair share, and
// that count; the lowest such face when several are equally far.
func (c *DiceCheck) furthest() (face, count int) {
	want := float64(c.Throws) / faceCount
	best := -1.0
	for i, n := range c.Faces {
		if d := math.Abs(float64(n) - want); d > best {
			best, face, count = d, i+1, n
		}
	}
	return face, count
}

// caution warns that a borderline flag may be bad luck, more so the more
// sets of dice the crew tests.
func caution(checked int) string {
	if checked <= 1 {
		return "Fair dice get flagged like this once in a hundred tests, so keep watching before you accuse anyone."
	}
	alarm := 1 - math.Pow(1-Level, float64(checked))
	return fmt.Sprintf("With %d members' dice tested, there is a %d%% chance that some fair set gets flagged by plain bad luck, so keep watching before you accuse anyone.",
		checked, int(math.Round(alarm*100)))
}

// fractions are the shares of the time people name in words.
var fractions = []struct {
	v    float64
	name string
}{
	{1.0 / 10, "a tenth"}, {1.0 / 8, "an eighth"}, {1.0 / 6, "a sixth"}, {1.0 / 5, "a fifth"},
	{1.0 / 4, "a quarter"}, {1.0 / 3, "a third"}, {2.0 / 5, "two fifths"}, {1.0 / 2, "half"},
	{3.0 / 5, "three fifths"}, {2.0 / 3, "two thirds"}, {3.0 / 4, "three quarters"},
}

// shareWords says a share in words: "a third", "about a quarter", "27%".
func shareWords(share float64) string {
	for _, f := range fractions {
		switch d := math.Abs(share - f.v); {
		case d < 0.005:
			return f.name
		case d < 0.015:
			return "about " + f.name
		}
	}
	return fmt.Sprintf("%d%%", int(math.Round(share*100)))
}

// oddsWords says how often something of chance p happens: "less than once
// in a million times", "about once in 250 times", "about 4 times in 10".
func oddsWords(p float64) string {
	switch {
	case p < 1e-6:
		return "less than once in a million times"
	case p < 0.095:
		return "about once in " + thousands(roundTwo(1/p)) + " times"
	case p < 0.15:
		return "about once in 10 times"
	case p < 0.95:
		return fmt.Sprintf("about %d times in 10", int(math.Round(p*10)))
	}
	return "almost every time"
}

// roundTwo rounds x to two significant digits: 1,234 to 1,200.
func roundTwo(x float64) int {
	scale := math.Pow(10, math.Floor(math.Log10(x))-1)
	return int(math.Round(x/scale) * scale)
}

// thousands writes n with commas between thousands: 12,345.
func thousands(n int) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// possessive is a member's name with 's ("Bob's"), or "member 7's" when the
// member has no name.
func possessive(name string, m Member) string {
	if name == "" {
		name = "member " + strconv.FormatInt(int64(m), 10)
	}
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

// dice is n dice in words: "1 die", "1,200 dice".
func dice(n int) string {
	if n == 1 {
		return "1 die"
	}
	return thousands(n) + " dice"
}

// times is a count of times: "once", "11 times".
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return thousands(n) + " times"
}

// fairTimes is how many times fair dice would show a face, want being a
// sixth of the dice: "100 times" when that is whole, "about 6 times" (for
// 34 dice) when it is not.
func fairTimes(want float64) string {
	n := int(math.Round(want))
	if math.Abs(want-float64(n)) < 1e-9 {
		return times(n)
	}
	return "about " + times(n)
}
