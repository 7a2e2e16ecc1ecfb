// Package numfmt formats numbers for people. The CLI's reports, the TUI and
// the metric table all use it, so a value reads the same everywhere: scores
// with three decimals, parameters in their shortest exact form with a tidy
// exponent (1e6, not 1e+06), durations with SI units (850 µs, 1.2 s), and a
// missing value as "n/a". It imports nothing of tealab's, so that any
// package may use it.
package numfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Missing is how a value that does not exist (NaN) is shown.
const Missing = "n/a"

// special formats NaN and ±Inf; ok is false for finite values.
func special(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return Missing, true
	case math.IsInf(v, 1):
		return "+Inf", true
	case math.IsInf(v, -1):
		return "-Inf", true
	}
	return "", false
}

// Score formats a metric: three decimals in [0.001, 1000), otherwise three
// significant digits; zero is "0".
func Score(v float64) string {
	if s, ok := special(v); ok {
		return s
	}
	switch a := math.Abs(v); {
	case v == 0:
		return "0"
	case a >= 0.001 && a < 1000:
		return Fixed(v, 3)
	}
	return Sig(v, 3)
}

// Spread formats a standard deviation compactly after a score, as a
// narrow table has room for: "±.037" (Score without its leading zero),
// "±1.25", and "± 0" for none, which trimming would leave a bare "±".
func Spread(sd float64) string {
	s := Score(sd)
	if s == "0" {
		return "± 0"
	}
	if t, ok := strings.CutPrefix(s, "0."); ok {
		s = "." + t
	}
	return "±" + s
}

// Fixed formats v with d decimals and never shows "-0".
func Fixed(v float64, d int) string {
	if s, ok := special(v); ok {
		return s
	}
	s := strconv.FormatFloat(v, 'f', d, 64)
	if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.") == "" {
		s = s[1:]
	}
	return s
}

// Sig formats v with n significant digits: plain notation for magnitudes in
// [1e-4, 1e6), else an exponent written without "+" or leading zeros
// (1.2e6, 3e-7). Trailing zeros are dropped.
func Sig(v float64, n int) string {
	if s, ok := special(v); ok {
		return s
	}
	if v == 0 {
		return "0"
	}
	return tidy(strconv.FormatFloat(v, 'g', max(n, 1), 64), n)
}

// Param formats a parameter value or range bound in its shortest form that
// parses back to exactly v: plain from 1e-4 up to 1e5 (0.001, 2.5, 10000),
// an exponent beyond (1e5, 1e6, 2.5e-7), so that the bounds of one range
// read alike.
func Param(v float64) string {
	if s, ok := special(v); ok {
		return s
	}
	if v == 0 {
		return "0"
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	e, _ := strconv.Atoi(exp)
	if e >= 5 || e < -4 {
		return mant + "e" + strconv.Itoa(e)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Bound formats the bound of a range for people: a power of two from 2^20
// up as 2^k (a seed's 2^53, not 9.007199254740992e15), else as Param.
func Bound(v float64) string {
	if v >= 1<<20 && !math.IsInf(v, 0) {
		if f, e := math.Frexp(v); f == 0.5 {
			return "2^" + strconv.Itoa(e-1)
		}
	}
	return Param(v)
}

// Value formats a count or a measurement: whole numbers plainly (below
// 1e15), others with four significant digits.
func Value(v float64) string {
	if s, ok := special(v); ok {
		return s
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return Sig(v, 4)
}

// tidy rewrites strconv's 'g' output: the exponent without "+" and leading
// zeros, the mantissa without trailing zeros; magnitudes in [1e-4, 1e6)
// come back in plain notation with at most n significant digits (n < 0:
// as many as strconv gave).
func tidy(s string, n int) string {
	mant, exp, hasExp := strings.Cut(s, "e")
	if hasExp {
		e, err := strconv.Atoi(exp)
		if err == nil && e >= -4 && e < 6 {
			v, _ := strconv.ParseFloat(s, 64)
			prec := -1
			if n > 0 {
				prec = max(n-1-e, 0)
			}
			return trimZeros(strconv.FormatFloat(v, 'f', prec, 64))
		}
		mant = trimZeros(mant)
		return mant + "e" + strconv.Itoa(e)
	}
	return trimZeros(mant)
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// Seconds formats a duration given in seconds with an SI unit and two or
// three significant digits: "850 µs", "12 ms", "1.2 s", "42 s", "3m05s",
// "2h04m". A negative or NaN duration is "n/a".
func Seconds(s float64) string {
	switch {
	case math.IsNaN(s) || s < 0:
		return Missing
	case math.IsInf(s, 1):
		return "+Inf s"
	case s == 0:
		return "0 s"
	case s < 1e-6:
		return trimZeros(strconv.FormatFloat(s*1e9, 'f', decimals(s*1e9), 64)) + " ns"
	case s < 1e-3:
		return trimZeros(strconv.FormatFloat(s*1e6, 'f', decimals(s*1e6), 64)) + " µs"
	case s < 1:
		return trimZeros(strconv.FormatFloat(s*1e3, 'f', decimals(s*1e3), 64)) + " ms"
	case s < 60:
		return trimZeros(strconv.FormatFloat(s, 'f', decimals(s), 64)) + " s"
	case s < 3600:
		t := int(math.Round(s))
		return fmt.Sprintf("%dm%02ds", t/60, t%60)
	}
	t := int(math.Round(s / 60))
	return fmt.Sprintf("%dh%02dm", t/60, t%60)
}

// decimals keeps two significant digits below 10 and none above, so that
// 1.23 reads 1.2 and 123 reads 123.
func decimals(v float64) int {
	if v < 10 {
		return 1
	}
	return 0
}

// Count is n with its noun, pluralised with an s: "1 fold", "3 folds".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + Plural(noun)
}

// Ordinal writes n as a place in a line: 1st, 2nd, 3rd, 4th, 11th, 22nd.
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// Plural adds the English plural ending to a regular noun.
func Plural(noun string) string {
	switch {
	case strings.HasSuffix(noun, "leaf"):
		return noun[:len(noun)-1] + "ves"
	case strings.HasSuffix(noun, "epoch"), strings.HasSuffix(noun, "stomach"):
		return noun + "s"
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "ch"):
		return noun + "es"
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

// Percent formats a fraction as a percentage with up to one decimal: 0.2 is
// "20%", 0.125 "12.5%".
func Percent(f float64) string {
	if s, ok := special(f); ok {
		return s
	}
	return trimZeros(strconv.FormatFloat(f*100, 'f', 1, 64)) + "%"
}

// Float is a float64 for JSON: NaN and ±Inf, which encoding/json refuses,
// are written as null, and null reads back as NaN. Undefined scores are NaN
// throughout tealab, so every number a result writes goes through Float.
type Float float64

// MarshalJSON writes f in the shortest form that reads back exactly, or
// null when it is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number, or null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("%s is not a number", b)
	}
	*f = Float(v)
	return nil
}

// Floats converts for JSON; nil stays nil.
func Floats(xs []float64) []Float {
	if xs == nil {
		return nil
	}
	out := make([]Float, len(xs))
	for i, x := range xs {
		out[i] = Float(x)
	}
	return out
}

// Unfloats converts back from JSON; nil stays nil.
func Unfloats(xs []Float) []float64 {
	if xs == nil {
		return nil
	}
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// Denoise returns 0 for a value that is float noise beside scale (below
// 1e-12 of it: an intercept of -6.5e-19 on weights near 0.05), v
// otherwise, so that a report shows 0 rather than the noise.
func Denoise(v, scale float64) float64 {
	if math.Abs(v) <= 1e-12*math.Abs(scale) {
		return 0
	}
	return v
}

// shades are the glyphs of a text heat scale, low to high.
var shades = []string{"░", "▒", "▓", "█"}

// Shade is the glyph for t in [0, 1] on a text heat scale (░ low to █
// high), so that a heat table reads without colour; " " for NaN.
func Shade(t float64) string {
	if math.IsNaN(t) {
		return " "
	}
	return shades[min(max(int(t*float64(len(shades))), 0), len(shades)-1)]
}
