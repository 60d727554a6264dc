package ledger

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
)

// ErrPositionsUnbalanced means the positions given to PlanTransfers do not
// sum to zero, so no set of payments can clear them.
var ErrPositionsUnbalanced = errors.New("positions do not sum to zero")

// ExactLimit is the largest number of non-zero positions PlanTransfers
// settles with a provably minimal number of payments; beyond it a greedy
// plan is used (the subset search doubles with every participant).
const ExactLimit = 16

// Transfer says that the participant at index From pays the one at index To.
type Transfer struct {
	From   int   `json:"from"`
	To     int   `json:"to"`
	Amount int64 `json:"amount"`
}

// PlanTransfers returns payments that bring every position to zero, where
// positions[i] > 0 means participant i is owed money and < 0 means they owe
// it. For up to ExactLimit non-zero positions the plan has the fewest
// payments possible, n − g, where g is the largest number of disjoint
// groups that each sum to zero (each group of k settles in k−1 payments,
// and no plan can do better); exact reports that. Larger cases get a greedy
// plan: exactly opposite positions pay each other first, then the largest
// debtor repeatedly pays the largest creditor.
func PlanTransfers(positions []int64) (transfers []Transfer, exact bool, err error) {
	var idx []int
	var total int64
	for i, p := range positions {
		total += p
		if p != 0 {
			idx = append(idx, i)
		}
	}
	if total != 0 {
		return nil, false, fmt.Errorf("%w: they sum to %d", ErrPositionsUnbalanced, total)
	}
	if len(idx) > ExactLimit {
		return greedyTransfers(positions, idx), false, nil
	}
	for _, group := range zeroSumGroups(positions, idx) {
		transfers = append(transfers, settleGroup(positions, group)...)
	}
	return transfers, true, nil
}

// zeroSumGroups partitions idx into the largest number of groups whose
// positions each sum to zero, by dynamic programming over subsets:
// best[m] is the most zero-sum groups that the set m can be cut into when
// taken as a prefix of some ordering, which is max over i in m of
// best[m without i], plus one if m itself sums to zero.
func zeroSumGroups(positions []int64, idx []int) [][]int {
	n := len(idx)
	if n == 0 {
		return nil
	}
	full := 1<<n - 1
	sum := make([]int64, full+1)
	best := make([]int8, full+1)
	for m := 1; m <= full; m++ {
		low := bits.TrailingZeros(uint(m))
		sum[m] = sum[m&(m-1)] + positions[idx[low]]
		var b int8
		for rest := m; rest != 0; rest &= rest - 1 {
			i := bits.TrailingZeros(uint(rest))
			b = max(b, best[m&^(1<<i)])
		}
		if sum[m] == 0 {
			b++
		}
		best[m] = b
	}
	// Undo the choices from the full set down: the removed members, read
	// backwards, are an ordering whose zero-sum prefixes cut the groups.
	order := make([]int, n)
	for m, k := full, n-1; m != 0; k-- {
		want := best[m]
		if sum[m] == 0 {
			want--
		}
		for rest := m; rest != 0; rest &= rest - 1 {
			i := bits.TrailingZeros(uint(rest))
			if best[m&^(1<<i)] == want {
				order[k], m = idx[i], m&^(1<<i)
				break
			}
		}
	}
	var groups [][]int
	var group []int
	var running int64
	for _, i := range order {
		group, running = append(group, i), running+positions[i]
		if running == 0 {
			groups, group = append(groups, group), nil
		}
	}
	return groups
}

// settleGroup settles a zero-sum group in at most len(group)−1 payments:
// debtors and creditors, largest first, are matched in turn, and every
// payment clears at least one of the two (the last clears both).
func settleGroup(positions []int64, group []int) []Transfer {
	var debtors, creditors []int
	left := map[int]int64{}
	for _, i := range group {
		left[i] = positions[i]
		if positions[i] < 0 {
			debtors = append(debtors, i)
		} else {
			creditors = append(creditors, i)
		}
	}
	bySize := func(s []int) {
		sort.SliceStable(s, func(a, b int) bool { return abs(left[s[a]]) > abs(left[s[b]]) })
	}
	bySize(debtors)
	bySize(creditors)
	var out []Transfer
	for d, c := 0, 0; d < len(debtors) && c < len(creditors); {
		amount := min(-left[debtors[d]], left[creditors[c]])
		out = append(out, Transfer{From: debtors[d], To: creditors[c], Amount: amount})
		left[debtors[d]] += amount
		left[creditors[c]] -= amount
		if left[debtors[d]] == 0 {
			d++
		}
		if left[creditors[c]] == 0 {
			c++
		}
	}
	return out
}

// greedyTransfers settles many participants quickly: exact opposites first,
// then the largest debtor pays the largest creditor until all are clear.
func greedyTransfers(positions []int64, idx []int) []Transfer {
	left := make(map[int]int64, len(idx))
	byOwed := map[int64][]int{} // creditors waiting, by amount
	for _, i := range idx {
		left[i] = positions[i]
		if positions[i] > 0 {
			byOwed[positions[i]] = append(byOwed[positions[i]], i)
		}
	}
	var out []Transfer
	for _, i := range idx {
		if c := byOwed[-positions[i]]; positions[i] < 0 && len(c) > 0 {
			out = append(out, Transfer{From: i, To: c[0], Amount: -positions[i]})
			left[i], left[c[0]], byOwed[-positions[i]] = 0, 0, c[1:]
		}
	}
	for {
		d, c := -1, -1
		for _, i := range idx {
			if left[i] < 0 && (d < 0 || left[i] < left[d]) {
				d = i
			}
			if left[i] > 0 && (c < 0 || left[i] > left[c]) {
				c = i
			}
		}
		if d < 0 || c < 0 {
			return out
		}
		amount := min(-left[d], left[c])
		out = append(out, Transfer{From: d, To: c, Amount: amount})
		left[d] += amount
		left[c] -= amount
	}
}

// abs is the absolute value of an amount.
func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
