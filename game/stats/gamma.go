package stats

import "math"

// This file is the chi-square test's arithmetic: the statistic for counts of
// faces and its p-value through the regularized upper incomplete gamma
// function, after Numerical Recipes (§6.2): a series where it converges
// fast, a continued fraction (modified Lentz) elsewhere.

const (
	gammaEps   = 1e-15  // relative accuracy of a term or of a step
	gammaIter  = 1000   // far more steps than either method needs below x = 1e6
	gammaTiny  = 1e-300 // keeps the continued fraction off a division by zero
	faceCount  = 6      // faces of a die
	freedom    = faceCount - 1
	minPerFace = 5 // expected count per face for the test to hold
	minDice    = faceCount * minPerFace
)

// chiSquare is Pearson's statistic for counts of faces against a fair die:
// the sum over faces of (observed - expected)² / expected. It is 0 for no
// dice.
func chiSquare(f Faces) float64 {
	n := f.Total()
	if n == 0 {
		return 0
	}
	want := float64(n) / faceCount
	var x float64
	for _, c := range f {
		d := float64(c) - want
		x += d * d / want
	}
	return x
}

// chiSquareP is the chance that a chi-square variable with df degrees of
// freedom is at least x: Q(df/2, x/2).
func chiSquareP(x float64, df int) float64 {
	return upperGamma(float64(df)/2, x/2)
}

// upperGamma is the regularized upper incomplete gamma function
// Q(a, x) = Γ(a, x) / Γ(a), for a > 0. Below x = a+1 the series for
// P = 1 - Q converges quickly and Q is not small, so 1 - P loses nothing
// that matters; above it the continued fraction gives Q directly, keeping
// its relative accuracy far into the tail where p-values are tiny.
func upperGamma(a, x float64) float64 {
	switch {
	case math.IsNaN(a) || math.IsNaN(x) || a <= 0:
		return math.NaN()
	case x <= 0:
		return 1
	case math.IsInf(x, 1):
		return 0
	case x < a+1:
		return 1 - lowerSeries(a, x)
	}
	return upperFraction(a, x)
}

// prefactor is x^a e^-x / Γ(a), computed in logarithms so that it neither
// overflows nor underflows before it has to.
func prefactor(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	return math.Exp(a*math.Log(x) - x - lg)
}

// lowerSeries is P(a, x) by its series:
// P = x^a e^-x / Γ(a) · Σ x^n / (a (a+1) ... (a+n)).
func lowerSeries(a, x float64) float64 {
	ap, term := a, 1/a
	sum := term
	for range gammaIter {
		ap++
		term *= x / ap
		sum += term
		if math.Abs(term) < math.Abs(sum)*gammaEps {
			break
		}
	}
	return sum * prefactor(a, x)
}

// upperFraction is Q(a, x) by its continued fraction
// Q = x^a e^-x / Γ(a) · 1/(x+1-a- 1·(1-a)/(x+3-a- 2·(2-a)/(x+5-a- ...))),
// evaluated by the modified Lentz method.
func upperFraction(a, x float64) float64 {
	b := x + 1 - a
	c := 1 / gammaTiny
	d := 1 / b
	h := d
	for i := 1; i <= gammaIter; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < gammaTiny {
			d = gammaTiny
		}
		c = b + an/c
		if math.Abs(c) < gammaTiny {
			c = gammaTiny
		}
		d = 1 / d
		step := d * c
		h *= step
		if math.Abs(step-1) < gammaEps {
			break
		}
	}
	return prefactor(a, x) * h
}
