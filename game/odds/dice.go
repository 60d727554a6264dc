package odds

// maxDice is the most dice thrown at once: five in the Ship, Captain and
// Crew family, three in Die Familie Meier.
const maxDice = 5

// throw is one distinct result of throwing n dice, as a sorted multiset, with
// its probability. The order of the dice never matters to the rules, so the
// advisor works with the 252 multisets of five dice instead of the 7,776
// ordered results, each weighted by its multinomial count.
type throw struct {
	faces  []int   // sorted ascending, len n
	counts [7]int8 // counts[f] is how many dice show f; counts[0] is unused
	p      float64 // multinomial probability: n! / (∏ counts[f]!) / 6^n
}

// throws[n] lists every distinct throw of n dice, for n from 0 to maxDice.
// It is computed once at start-up: 462 multisets in all.
var throws = func() [maxDice + 1][]throw {
	var all [maxDice + 1][]throw
	for n := range all {
		all[n] = enumerateThrows(n)
	}
	return all
}()

// enumerateThrows lists the sorted multisets of n dice with their
// probabilities.
func enumerateThrows(n int) []throw {
	var out []throw
	faces := make([]int, n)
	var walk func(i, lowest int)
	walk = func(i, lowest int) {
		if i == n {
			t := throw{faces: append([]int(nil), faces...)}
			for _, f := range faces {
				t.counts[f]++
			}
			t.p = multinomial(t.counts, n)
			out = append(out, t)
			return
		}
		for f := lowest; f <= 6; f++ {
			faces[i] = f
			walk(i+1, f)
		}
	}
	walk(0, 1)
	return out
}

// multinomial is the probability of one particular multiset of n fair dice:
// the number of orderings that give it over 6^n.
func multinomial(counts [7]int8, n int) float64 {
	ways := factorial(n)
	for f := 1; f <= 6; f++ {
		ways /= factorial(int(counts[f]))
	}
	total := 1
	for range n {
		total *= 6
	}
	return float64(ways) / float64(total)
}

// factorial of a small non-negative n.
func factorial(n int) int {
	r := 1
	for i := 2; i <= n; i++ {
		r *= i
	}
	return r
}
