package ledger

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// applyTransfers returns the positions left after the transfers are paid.
func applyTransfers(positions []int64, transfers []Transfer) []int64 {
	left := append([]int64(nil), positions...)
	for _, t := range transfers {
		left[t.From] += t.Amount
		left[t.To] -= t.Amount
	}
	return left
}

// checkPlan asserts that a plan clears every position with positive
// payments from debtors to creditors.
func checkPlan(t *testing.T, positions []int64, transfers []Transfer) {
	t.Helper()
	for _, tr := range transfers {
		if tr.Amount <= 0 || positions[tr.From] >= 0 || positions[tr.To] <= 0 {
			t.Fatalf("positions %v: bad transfer %+v", positions, tr)
		}
	}
	for i, v := range applyTransfers(positions, transfers) {
		if v != 0 {
			t.Fatalf("positions %v: participant %d left at %d after %+v", positions, i, v, transfers)
		}
	}
}

// bruteMinTransfers is the textbook exhaustive search: settle the first
// open position against every later one of opposite sign, recursively.
func bruteMinTransfers(positions []int64) int {
	var solve func(left []int64, from int) int
	solve = func(left []int64, from int) int {
		for from < len(left) && left[from] == 0 {
			from++
		}
		if from == len(left) {
			return 0
		}
		best := 1 << 30
		for j := from + 1; j < len(left); j++ {
			if left[j]*left[from] < 0 {
				left[j] += left[from]
				best = min(best, 1+solve(left, from+1))
				left[j] -= left[from]
			}
		}
		return best
	}
	return solve(append([]int64(nil), positions...), 0)
}

func TestPlanTransfersTable(t *testing.T) {
	cases := []struct {
		name      string
		positions []int64
		want      int
	}{
		{"nobody owes anything", []int64{0, 0, 0}, 0},
		{"empty", nil, 0},
		{"one debtor one creditor", []int64{-30, 30}, 1},
		{"one debtor pays two", []int64{-30, 10, 20}, 2},
		{"two pairs cancel", []int64{-5, 5, -7, 7}, 2},
		{"pairs hidden among a chain", []int64{-10, -20, 15, 5, 10}, 3},
		{"three groups", []int64{-1, 1, -2, 2, -3, 3}, 3},
		{"no zero-sum subgroup", []int64{-4, -5, 2, 7}, 3},
		{"bank included", []int64{-100, 40, 35, 25}, 3},
		{"group of three beats greedy", []int64{-6, -4, 5, 5, -3, 3}, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, exact, err := PlanTransfers(tc.positions)
			if err != nil || !exact {
				t.Fatalf("err %v exact %v", err, exact)
			}
			checkPlan(t, tc.positions, got)
			if len(got) != tc.want {
				t.Fatalf("%d payments %+v, want %d", len(got), got, tc.want)
			}
		})
	}
}

func TestPlanTransfersRefusesUnbalancedPositions(t *testing.T) {
	if _, _, err := PlanTransfers([]int64{-5, 4}); !errors.Is(err, ErrPositionsUnbalanced) {
		t.Fatalf("err = %v, want ErrPositionsUnbalanced", err)
	}
}

// TestPlanTransfersIsMinimal compares the plan with exhaustive search on
// many small random cases, including many with zero-sum subgroups.
func TestPlanTransfersIsMinimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 2000 {
		n := 2 + rng.IntN(7)
		positions := make([]int64, n)
		var sum int64
		for j := 0; j < n-1; j++ {
			positions[j] = int64(rng.IntN(11) - 5) // small values make coincidences likely
			sum += positions[j]
		}
		positions[n-1] = -sum
		got, exact, err := PlanTransfers(positions)
		if err != nil || !exact {
			t.Fatalf("case %d %v: err %v exact %v", i, positions, err, exact)
		}
		checkPlan(t, positions, got)
		if want := bruteMinTransfers(positions); len(got) != want {
			t.Fatalf("case %d %v: %d payments %+v, brute force finds %d", i, positions, len(got), got, want)
		}
	}
}

func TestPlanTransfersAtTheExactLimitAndBeyond(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{ExactLimit, ExactLimit + 1, 40} {
		positions := make([]int64, n)
		var sum int64
		for j := 0; j < n-1; j++ {
			positions[j] = int64(rng.IntN(2001) - 1000)
			sum += positions[j]
		}
		positions[n-1] = -sum
		got, exact, err := PlanTransfers(positions)
		if err != nil || exact != (n <= ExactLimit) {
			t.Fatalf("n=%d: err %v exact %v", n, err, exact)
		}
		checkPlan(t, positions, got)
		if len(got) > n-1 {
			t.Fatalf("n=%d: %d payments, more than n-1", n, len(got))
		}
	}
}

func TestGreedyPairsExactOpposites(t *testing.T) {
	positions := make([]int64, 0, 20)
	for i := 1; i <= 10; i++ {
		positions = append(positions, int64(-i*7), int64(i*7))
	}
	got, exact, err := PlanTransfers(positions)
	if err != nil || exact {
		t.Fatalf("err %v exact %v", err, exact)
	}
	checkPlan(t, positions, got)
	if len(got) != 10 {
		t.Fatalf("%d payments, want the 10 exact pairs", len(got))
	}
}
