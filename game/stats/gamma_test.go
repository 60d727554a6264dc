package stats

import (
	"math"
	"testing"
)

// TestChiSquarePKnownValues pins the p-value against the critical values
// printed in chi-square tables (to the digits they print).
func TestChiSquarePKnownValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		x    float64
		df   int
		want float64
	}{
		{"nothing uneven at all", 0, 5, 1},
		{"5% critical value, 5 df", 11.0705, 5, 0.05},
		{"1% critical value, 5 df", 15.0863, 5, 0.01},
		{"0.1% critical value, 5 df", 20.5150, 5, 0.001},
		{"median, 5 df", 4.35146, 5, 0.5},
		{"5% critical value, 1 df", 3.841459, 1, 0.05},
		{"1% critical value, 2 df", 9.210340, 2, 0.01},
		{"5% critical value, 10 df", 18.30704, 10, 0.05},
		{"1% critical value, 30 df", 50.89218, 30, 0.01},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := chiSquareP(tc.x, tc.df)
			if math.Abs(got-tc.want) > 2e-6+1e-5*tc.want {
				t.Errorf("chiSquareP(%v, %d) = %.9f, want %.9f", tc.x, tc.df, got, tc.want)
			}
		})
	}
}

// exactQ is Q(a, y) for a whole or half-whole a by its closed forms:
// e^-y Σ_{j<k} y^j/j! for a = k, and erfc(√y) + e^-y Σ_{j<k} y^(j+½)/Γ(j+3/2)
// for a = k+½. It is an oracle independent of the series and the fraction.
func exactQ(a, y float64) float64 {
	if a == math.Floor(a) {
		sum, term := 0.0, 1.0
		for j := 0; j < int(a); j++ {
			sum += term
			term *= y / float64(j+1)
		}
		return math.Exp(-y) * sum
	}
	sum := 0.0
	term := math.Sqrt(y) / (math.Sqrt(math.Pi) / 2) // y^½ / Γ(3/2)
	for j := 0; j < int(a); j++ {
		sum += term
		term *= y / (float64(j) + 1.5)
	}
	return math.Erfc(math.Sqrt(y)) + math.Exp(-y)*sum
}

// TestUpperGammaClosedForms checks Q against the closed forms across both
// methods' ranges and deep into the tail, to a relative 1e-12.
func TestUpperGammaClosedForms(t *testing.T) {
	t.Parallel()
	for _, a := range []float64{0.5, 1, 1.5, 2, 2.5, 3, 5, 7.5, 10, 15} {
		for _, y := range []float64{1e-6, 0.01, 0.3, 1, 2, 2.4999, 3.5, 5, 8, 12, 20, 40, 80, 150} {
			got, want := upperGamma(a, y), exactQ(a, y)
			if math.Abs(got-want) > 1e-12*want+1e-300 {
				t.Errorf("Q(%v, %v) = %.17g, want %.17g (relative error %.2g)", a, y, got, want, math.Abs(got-want)/want)
			}
		}
	}
}

// TestUpperGammaEdges covers the arguments at the ends of the range.
func TestUpperGammaEdges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, x float64
		want float64
	}{
		{"x = 0", 2.5, 0, 1},
		{"negative x is below every value", 2.5, -3, 1},
		{"infinite x", 2.5, math.Inf(1), 0},
		{"far tail underflows to 0", 2.5, 1e4, 0},
		{"Q(1, x) = e^-x", 1, 3, math.Exp(-3)},
	}
	for _, tc := range tests {
		if got := upperGamma(tc.a, tc.x); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: Q(%v, %v) = %v, want %v", tc.name, tc.a, tc.x, got, tc.want)
		}
	}
	for _, a := range []float64{0, -1, math.NaN()} {
		if got := upperGamma(a, 1); !math.IsNaN(got) {
			t.Errorf("Q(%v, 1) = %v, want NaN", a, got)
		}
	}
}

// TestChiSquare checks the statistic on counts worked by hand.
func TestChiSquare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    Faces
		want float64
	}{
		{"no dice", Faces{}, 0},
		{"perfectly even", Faces{10, 10, 10, 10, 10, 10}, 0},
		// Expected 10 each: (20-10)²/10 + 4·0 + (0-10)²/10 = 10 + 10.
		{"one face twice as often, one never", Faces{20, 10, 10, 10, 10, 0}, 20},
		// 600 throws, sixes a third of the time: expected 100 each;
		// (200-100)²/100 + 5·(80-100)²/100 = 100 + 20.
		{"sixes a third of the time", Faces{80, 80, 80, 80, 80, 200}, 120},
	}
	for _, tc := range tests {
		if got := chiSquare(tc.f); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: chiSquare(%v) = %v, want %v", tc.name, tc.f, got, tc.want)
		}
	}
}
