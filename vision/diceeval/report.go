package main

import (
	"fmt"
	"slices"
	"strings"
)

// summarize puts the figures in Markdown: the throws it should read, those
// it should refuse, and the time per reading.
func summarize(tr truth, rs []reading, fast, slow []float64) string {
	var b strings.Builder
	type tally struct{ throws, refused, read, readRight, dice, diceRight int }
	kinds := map[string]*tally{}
	for _, k := range []string{"read", "count", "edge", "blur"} {
		kinds[k] = &tally{}
	}
	for i, t := range tr.Throws {
		k := kinds[t.Kind]
		k.throws++
		if !rs[i].OK {
			k.refused++
			continue
		}
		k.read++
		dr, whole := right(t, rs[i])
		k.dice += len(t.Dice)
		k.diceRight += dr
		if whole {
			k.readRight++
		}
	}
	r := kinds["read"]
	fmt.Fprintf(&b, "Test throws: %d, drawn by %s.\n\n", len(tr.Throws), tr.Generator)
	fmt.Fprintf(&b, "| readable throws (%d, %d dice) | figure |\n| --- | --- |\n", r.throws, diceIn(tr, "read"))
	fmt.Fprintf(&b, "| dice read right, of the dice in throws it read | %s (%d of %d) |\n", pct(r.diceRight, r.dice), r.diceRight, r.dice)
	fmt.Fprintf(&b, "| whole throws read right, of those it read | %s (%d of %d) |\n", pct(r.readRight, r.read), r.readRight, r.read)
	fmt.Fprintf(&b, "| throws refused | %s (%d of %d) |\n", pct(r.refused, r.throws), r.refused, r.throws)
	fmt.Fprintf(&b, "| whole throws read right, of all | %s |\n\n", pct(r.readRight, r.throws))
	b.WriteString(refusals(tr, rs))
	fmt.Fprintf(&b, "| throws it must not read | throws | refused | read right | read wrong |\n| --- | --- | --- | --- | --- |\n")
	for _, k := range []struct{ kind, what string }{
		{"count", "one die more or fewer than the pad expects"},
		{"edge", "a die on edge (cocked)"},
		{"blur", "a shaken or out-of-focus frame"},
	} {
		t := kinds[k.kind]
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", k.what, t.throws, pct(t.refused, t.throws),
			pct(t.readRight, t.throws), pct(t.read-t.readRight, t.throws))
	}
	b.WriteString(filled(tr, rs))
	fmt.Fprintf(&b, "\n| time per reading (five dice: grab + detect + classify) | median | 90th percentile | max |\n| --- | --- | --- | --- |\n")
	fmt.Fprintf(&b, "| Chromium, CPU as is | %s |\n", times(fast))
	fmt.Fprintf(&b, "| Chromium, CPU throttled 4x | %s |\n", times(slow))
	return b.String()
}

func diceIn(tr truth, kind string) int {
	n := 0
	for _, t := range tr.Throws {
		if t.Kind == kind {
			n += len(t.Dice)
		}
	}
	return n
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

func times(ms []float64) string {
	if len(ms) == 0 {
		return "- | - | -"
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	return fmt.Sprintf("%.0f ms | %.0f ms | %.0f ms (%d readings)", s[len(s)/2], s[len(s)*9/10], s[len(s)-1], len(s))
}

// misreads lists every throw read wrong, and every readable one refused.
func misreads(tr truth, rs []reading) string {
	var b strings.Builder
	b.WriteString("\n## Misread or refused\n\n")
	for i, t := range tr.Throws {
		want := make([]int, 0, len(t.Dice))
		for _, d := range t.Dice {
			want = append(want, d.Face)
		}
		r := rs[i]
		_, whole := right(t, r)
		switch {
		case r.OK && !whole:
			fmt.Fprintf(&b, "- %s (%s, %s): read %v, truth %v\n", t.File, t.Kind, t.Table, r.Faces, want)
		case !r.OK && t.Kind == "read":
			fmt.Fprintf(&b, "- %s (read, %s): refused: %s (saw %v, filled %v, truth %v)\n", t.File, t.Table, r.Reason, r.Faces, r.Part, want)
		}
	}
	return b.String()
}

// refusals counts why the readable throws were refused, by the reader's
// own reason (dicereader.js).
func refusals(tr truth, rs []reading) string {
	reasons := []struct{ prefix, what string }{
		{"A die is on its edge", "a die taken for one on edge"},
		{"I see no dice", "no dice found"},
		{"I see ", "more or fewer dice found than there are"},
		{"I cannot read every die", "a die it was not sure enough of"},
	}
	counts := make([]int, len(reasons)+1)
	for i, t := range tr.Throws {
		if t.Kind != "read" || rs[i].OK {
			continue
		}
		k := len(reasons)
		for j, r := range reasons {
			if strings.HasPrefix(rs[i].Reason, r.prefix) {
				k = j
				break
			}
		}
		counts[k]++
	}
	var b strings.Builder
	b.WriteString("| readable throws refused, why | throws |\n| --- | --- |\n")
	for j, r := range reasons {
		fmt.Fprintf(&b, "| %s | %d |\n", r.what, counts[j])
	}
	fmt.Fprintf(&b, "| another reason | %d |\n\n", counts[len(reasons)])
	return b.String()
}

// filled counts what the camera puts in the tray, whole or partial
// readings alike: the dice filled, those filled right (the true die pairs
// gives it has that face), and those filled wrong (a cocked die filled as
// a face among them), by kind of throw.
func filled(tr truth, rs []reading) string {
	var b strings.Builder
	b.WriteString("\n| what the camera puts in the tray | dice in the throws | dice filled | filled right | filled wrong (a cocked die) | throws with a die filled |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, k := range []struct{ kind, what string }{
		{"read", "readable throws"},
		{"count", "one die more or fewer than the pad expects"},
		{"edge", "a die on edge (cocked)"},
		{"blur", "a shaken or out-of-focus frame"},
	} {
		var dice, fill, ok, cocked, throws int
		for i, t := range tr.Throws {
			if t.Kind != k.kind {
				continue
			}
			dice += len(t.Dice)
			n := 0
			for j, d := range pairs(t, rs[i]) {
				if g := rs[i].Dice[j]; g.Filled {
					n++
					switch {
					case d >= 0 && t.Dice[d].Face == g.Face:
						ok++
					case d >= 0 && t.Dice[d].Face == 0:
						cocked++
					}
				}
			}
			fill += n
			if n > 0 {
				throws++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d (%s) | %s | %d (%d) | %d |\n", k.what, dice, fill, pct(fill, dice),
			pct(ok, fill), fill-ok, cocked, throws)
	}
	return b.String()
}
