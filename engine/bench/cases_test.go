package bench

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tealab/tealab/datasets"
	_ "github.com/tealab/tealab/engine/models" // registers every model family and its cases
)

// caseTable is the table scikit-learn's side reads its cases from.
const caseTable = "../../bench/cases.tsv"

// toCome are the rows of the table whose model families tealab does not
// have yet; scikit-learn's side runs them alone until they land.
var toCome = []string{}

// caseRow is one row of the case table, the columns both sides read.
type caseRow struct{ name, data, task, standardise, metric string }

func readCaseTable(t *testing.T, path string) []caseRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	var rows []caseRow
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if header == nil {
			header = fields
			continue
		}
		if len(fields) != len(header) {
			t.Fatalf("%s:%d: %d columns, the header has %d", path, i+1, len(fields), len(header))
		}
		col := func(name string) string {
			j := slices.Index(header, name)
			if j < 0 {
				t.Fatalf("%s: no column %q in the header %q", path, name, header)
			}
			return fields[j]
		}
		rows = append(rows, caseRow{col("case"), col("data"), col("task"), col("standardise"), col("metric")})
	}
	return rows
}

// drift lists every disagreement between the case table and the cases the
// models register, one line each; none when they agree.
func drift(rows []caseRow, cases []Case) []string {
	var out []string
	byName := map[string]caseRow{}
	for _, r := range rows {
		if _, dup := byName[r.name]; dup {
			out = append(out, fmt.Sprintf("case %s: two rows in cases.tsv", r.name))
		}
		byName[r.name] = r
	}
	registered := map[string]bool{}
	for _, c := range cases {
		registered[c.Name] = true
		r, ok := byName[c.Name]
		if !ok {
			out = append(out, fmt.Sprintf("case %s (model %s): no row in cases.tsv", c.Name, c.Spec.Name))
			continue
		}
		out = append(out, rowDrift(r, c)...)
		if slices.Contains(toCome, c.Name) {
			out = append(out, fmt.Sprintf("case %s: model %s answers it now; drop it from toCome", c.Name, c.Spec.Name))
		}
	}
	for _, r := range rows {
		if !registered[r.name] && !slices.Contains(toCome, r.name) {
			out = append(out, fmt.Sprintf("case %s: in cases.tsv, but no model lists it in its Spec.Bench", r.name))
		}
	}
	for _, n := range toCome {
		if _, ok := byName[n]; !ok {
			out = append(out, fmt.Sprintf("case %s: in toCome but not in cases.tsv", n))
		}
	}
	return out
}

// rowDrift compares one registered case with its row.
func rowDrift(r caseRow, c Case) []string {
	var out []string
	differ := func(what, table, spec string) {
		if table != spec {
			out = append(out, fmt.Sprintf("case %s: %s %q in cases.tsv, %q in model %s's Spec.Bench", c.Name, what, table, spec, c.Spec.Name))
		}
	}
	differ("data set", r.data, c.Data)
	task, err := datasets.ParseTask(r.task)
	if err != nil {
		out = append(out, fmt.Sprintf("case %s: %v", c.Name, err))
	} else {
		differ("task", task.String(), c.Task.String())
	}
	differ("standardise", r.standardise, map[bool]string{true: "yes", false: "no"}[c.Scale])
	differ("metric", r.metric, Metric(c.Task))
	return out
}

func TestCaseTableMatchesSpecs(t *testing.T) {
	rows := readCaseTable(t, caseTable)
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", caseTable)
	}
	for _, line := range drift(rows, Cases()) {
		t.Error(line)
	}
}

// A case renamed on one side only must be caught from both.
func TestDriftCatchesARenamedCase(t *testing.T) {
	rows, cases := readCaseTable(t, caseTable), Cases()
	renamedRow := slices.Clone(rows)
	i := slices.IndexFunc(renamedRow, func(r caseRow) bool { return r.name == cases[0].Name })
	renamedRow[i].name += "2"
	if got := drift(renamedRow, cases); len(got) != 2 {
		t.Errorf("row renamed: %q, want the case without a row and the row without a model", got)
	}
	renamedCase := slices.Clone(cases)
	renamedCase[0].Name += "2"
	if got := drift(rows, renamedCase); len(got) != 2 {
		t.Errorf("case renamed: %q, want the case without a row and the row without a model", got)
	}
	otherData := slices.Clone(cases)
	otherData[0].Data = "clf_5k_20"
	if got := drift(rows, otherData); len(got) != 1 || !strings.Contains(got[0], "data set") {
		t.Errorf("data set changed: %q", got)
	}
}
