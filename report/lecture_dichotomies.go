package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/tealab/tealab/engine/lecture"
)

// Experiment dichotomies' picture: for each point set a header counting
// its dichotomies against 2^n and Cover's formula, a grid of small panels,
// one per dichotomy (the points inside ●, outside ○, each panel on a
// faint · ground), and a last row marked × of the labellings no halfplane
// makes.

const (
	dcIn     = '●'
	dcOut    = '○'
	dcGround = '·'
	dcNo     = '×'
)

var dcInks = map[rune]int{dcIn: 0, dcOut: 1, dcNo: 2}

func init() {
	RegisterLecture("dichotomies", LectureDrawing{Draw: dcDraw, Tables: dcTables})
}

func dcResult(result any) *lecture.DichotomiesResult {
	switch r := result.(type) {
	case *lecture.DichotomiesResult:
		return r
	case lecture.DichotomiesResult:
		return &r
	}
	return nil
}

var dcSup = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

func dcPow(n int) string {
	var b strings.Builder
	for _, d := range strconv.Itoa(n) {
		b.WriteRune(dcSup[d-'0'])
	}
	return b.String()
}

// dcHeader is "Π(4) = 14 of 2⁴ = 16 (Cover: 14)".
func dcHeader(s lecture.DichotomySet) string {
	return "Π(" + strconv.Itoa(s.N) + ") = " + strconv.Itoa(s.Count) + " of 2" + dcPow(s.N) + " = " + strconv.Itoa(s.All) + " (Cover: " + strconv.Itoa(s.Cover) + ")"
}

// dcPanel draws labelling mask of s in pw × ph cells.
func dcPanel(s lecture.DichotomySet, mask, pw, ph int) []string {
	cells := make([][]rune, ph)
	for i := range cells {
		cells[i] = []rune(strings.Repeat(string(dcGround), pw))
	}
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range s.Points {
		for k := range 2 {
			lo[k], hi[k] = math.Min(lo[k], p[k]), math.Max(hi[k], p[k])
		}
	}
	at := func(v float64, k, cells int) int {
		if hi[k] <= lo[k] || cells < 2 {
			return (cells - 1) / 2
		}
		return int(math.Round((v - lo[k]) / (hi[k] - lo[k]) * float64(cells-1)))
	}
	for i, p := range s.Points {
		g := dcOut
		if mask>>i&1 == 1 {
			g = dcIn
		}
		cells[ph-1-at(p[1], 1, ph)][at(p[0], 0, pw)] = g
	}
	out := make([]string, ph)
	for i, c := range cells {
		out[i] = string(c)
	}
	return out
}

// dcRows lays panels of the given masks out in rows of w cells, at most
// maxRows rows of panels; a row that cannot hold the rest ends "+N more".
func dcRows(s lecture.DichotomySet, masks []int, prefix string, w, pw, ph, maxRows int) []string {
	var out []string
	per := max(1, (w-len([]rune(prefix))+1)/(pw+1))
	for start, row := 0, 0; start < len(masks) && row < maxRows; row++ {
		n := min(per, len(masks)-start)
		more := ""
		if row == maxRows-1 && start+n < len(masks) {
			for n > 0 {
				more = " +" + strconv.Itoa(len(masks)-start-n) + " more"
				if len([]rune(prefix))+n*(pw+1)+len(more) <= w {
					break
				}
				n--
			}
			if n == 0 {
				return append(out, gdCut(prefix+"+"+strconv.Itoa(len(masks)-start)+" more", w))
			}
		}
		block := make([]string, ph)
		for i := range block {
			if i == 0 {
				block[i] = prefix
			} else {
				block[i] = strings.Repeat(" ", len([]rune(prefix)))
			}
		}
		for k := range n {
			p := dcPanel(s, masks[start+k], pw, ph)
			for i := range block {
				if k > 0 {
					block[i] += " "
				}
				block[i] += p[i]
			}
		}
		if more != "" {
			block[ph/2] += more
		}
		out = append(out, block...)
		start += n
	}
	return out
}

func dcDraw(result any, v LectureView) Picture {
	r := dcResult(result)
	if r == nil || len(r.Sets) == 0 {
		return Picture{Lines: []string{"(nothing to draw yet)"}}
	}
	w, h := max(v.Width, 10), max(v.Height, 2)
	var lines []string
	legend := "● inside  ○ outside (one panel per dichotomy)  × no halfplane makes it"
	if h >= 10 && len([]rune(legend)) <= w {
		lines = append(lines, legend)
	}
	pw, ph := 9, 4
	if h < 16 || w < 40 {
		pw, ph = 5, 2
	}
	left := h - len(lines)
	for i, s := range r.Sets {
		budget := left / (len(r.Sets) - i) // lines for this set
		left -= budget
		if budget < 1 {
			continue
		}
		sec := []string{gdCut(dcHeader(s)+", "+r.Layout+" layout", w)}
		avail := budget - 1
		noRows := 0
		if len(s.ImpossibleMasks) > 0 && avail >= 2*ph {
			noRows = 1
		}
		rows := max(0, (avail-noRows*ph)/ph)
		if rows == 0 && avail >= 1 && noRows == 0 {
			if avail >= ph {
				rows = 1
			}
		}
		sec = append(sec, dcRows(s, s.Masks, "", w, pw, ph, rows)...)
		if noRows > 0 {
			sec = append(sec, dcRows(s, s.ImpossibleMasks, string(dcNo)+" ", w, pw, ph, 1)...)
		} else if len(s.ImpossibleMasks) > 0 && len(sec) < budget {
			sec = append(sec, gdCut(string(dcNo)+" "+strconv.Itoa(len(s.ImpossibleMasks))+" labellings no halfplane makes", w))
		}
		if len(sec) > budget {
			sec = sec[:budget]
		}
		lines = append(lines, sec...)
		left += budget - len(sec)
	}
	for i := range lines {
		lines[i] = strings.TrimRight(gdCut(lines[i], w), " ")
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return Picture{Lines: lines, Inks: dcInks}
}

func dcTables(result any) []Table {
	r := dcResult(result)
	if r == nil {
		return nil
	}
	t := Table{Columns: []string{"n", "layout", "dichotomies Π(n)", "Cover 2 Σ C(n−1, i)", "2^n", "no halfplane makes", "up to complement"}}
	for _, s := range r.Sets {
		var no []string
		for _, d := range s.Impossible[:min(len(s.Impossible), 4)] {
			no = append(no, dcSetText(d))
		}
		if len(s.Impossible) > 4 {
			no = append(no, "…")
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(s.N), r.Layout, strconv.Itoa(s.Count), strconv.Itoa(s.Cover), strconv.Itoa(s.All),
			strings.Join(no, " "), strconv.Itoa(s.ImpossiblePairs)})
	}
	return []Table{t}
}

func dcSetText(d []int) string {
	parts := make([]string, len(d))
	for i, k := range d {
		parts[i] = strconv.Itoa(k)
	}
	return "{" + strings.Join(parts, ",") + "}"
}
