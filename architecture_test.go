package main

// The import rules of ARCHITECTURE.md, checked against the import graph that
// one `go list` of the module reports. The document is the rule: the Layers
// diagram is parsed from it (a package moved there is checked at its new
// place), the model families are read from its table, and a broken numbered
// rule is quoted from it. A package of the module that the diagram leaves out
// fails the test until it is given its line.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

const architectureDoc = "ARCHITECTURE.md"

// rootName is the module's root package as the diagram names it.
const rootName = "main.go"

// goPackage is what `go list` says of one package of the module.
type goPackage struct {
	ImportPath   string
	Imports      []string // its own code's imports
	TestImports  []string // its tests' (package p)
	XTestImports []string // its external tests' (package p_test)
	Deps         []string // every package its own code builds on
}

// moduleGraph is the module's packages by their name in the diagram: the
// path inside the module ("engine/eval"), or rootName.
type moduleGraph struct {
	module string
	pkgs   map[string]*goPackage
}

// name is an import path as the diagram would name it, and whether it is
// the module's at all.
func (g *moduleGraph) name(importPath string) (string, bool) {
	if importPath == g.module {
		return rootName, true
	}
	rel, ok := strings.CutPrefix(importPath, g.module+"/")
	return rel, ok
}

func (g *moduleGraph) names() []string {
	var out []string
	for n := range g.pkgs {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// loadModule lists the module's packages with one `go list`.
func loadModule(t *testing.T) *moduleGraph {
	t.Helper()
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	g := &moduleGraph{pkgs: map[string]*goPackage{}}
	for _, line := range strings.Split(string(mod), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			g.module = strings.Trim(strings.TrimSpace(m), `"`)
			break
		}
	}
	if g.module == "" {
		t.Fatal("go.mod names no module")
	}
	var stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports,Deps", "./...")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		p := new(goPackage)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list's output: %v", err)
		}
		if n, ok := g.name(p.ImportPath); ok {
			g.pkgs[n] = p
		}
	}
	return g
}

// An edge is one import of a package of the module, by its own code or by
// its tests only.
type edge struct {
	from, to string // to: as the diagram names it when inModule, else the import path
	inModule bool
	test     bool
}

func (e edge) String() string {
	if e.test {
		return fmt.Sprintf("%s's tests import %s", e.from, e.to)
	}
	return fmt.Sprintf("%s imports %s", e.from, e.to)
}

// edges are every import of every package, each once: an import of the
// package's own code is not repeated for its tests, and an external test
// importing its own package is left out.
func (g *moduleGraph) edges() []edge {
	var out []edge
	for _, from := range g.names() {
		p := g.pkgs[from]
		add := func(imp string, test bool) {
			if imp == p.ImportPath || (test && slices.Contains(p.Imports, imp)) {
				return
			}
			to, in := g.name(imp)
			if !in {
				to = imp
			}
			e := edge{from: from, to: to, inModule: in, test: test}
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
		for _, imp := range p.Imports {
			add(imp, false)
		}
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			add(imp, true)
		}
	}
	return out
}

// layers is the Layers diagram: the line of each package, counted from the
// bottom, and the packages marked "(tests only)".
type layers struct {
	level     map[string]int
	lines     []string // the diagram's lines, the bottom one first
	testsOnly map[string]bool
}

// testsOnlyMark is a name, or names joined by commas, marked "(tests only)".
var testsOnlyMark = regexp.MustCompile(`((?:[^\s,()]+,\s*)*[^\s,()]+)\s*\(tests only\)`)

// parseLayers reads the fenced block under "## Layers" of doc. Each line is
// a tier, the top one importing the most; its entries are separated by
// spaces or commas. An entry is a package's path inside the module,
// rootName for the root package, or "dir/*" for every package directly
// under dir, each on that line; "(tests only)" after an entry, or after
// entries joined by commas, marks them. pkgs are the module's packages,
// against which every entry is resolved.
func parseLayers(doc string, pkgs []string) (layers, error) {
	l := layers{level: map[string]int{}, testsOnly: map[string]bool{}}
	block, err := layersBlock(doc)
	if err != nil {
		return l, err
	}
	var errs []error
	for i, text := range block {
		lvl := len(block) - 1 - i
		add := func(entry string, testsOnly bool) {
			names, err := expandEntry(entry, pkgs)
			if err != nil {
				errs = append(errs, fmt.Errorf("the diagram's line %q: %v", text, err))
			}
			for _, n := range names {
				if at, dup := l.level[n]; dup {
					errs = append(errs, fmt.Errorf("the diagram places %s twice, on %q and on %q", n, block[len(block)-1-at], text))
				}
				l.level[n] = lvl
				l.testsOnly[n] = testsOnly
			}
		}
		rest := testsOnlyMark.ReplaceAllStringFunc(text, func(m string) string {
			for _, entry := range strings.Split(testsOnlyMark.FindStringSubmatch(m)[1], ",") {
				add(strings.TrimSpace(entry), true)
			}
			return " "
		})
		if strings.ContainsAny(rest, "()") {
			errs = append(errs, fmt.Errorf(`the diagram's line %q: only "(tests only)" may follow a name`, text))
			continue
		}
		for _, entry := range strings.FieldsFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == ',' }) {
			add(entry, false)
		}
	}
	for i := len(block) - 1; i >= 0; i-- {
		l.lines = append(l.lines, strings.TrimSpace(block[i]))
	}
	return l, errors.Join(errs...)
}

// layersBlock is the lines of the first fenced block of the Layers section.
func layersBlock(doc string) ([]string, error) {
	_, section, ok := strings.Cut("\n"+doc, "\n## Layers\n")
	if !ok {
		return nil, errors.New(`no "## Layers" section`)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	_, block, ok := strings.Cut(section, "```\n")
	if !ok {
		return nil, errors.New("the Layers section has no fenced diagram")
	}
	block, _, ok = strings.Cut(block, "```")
	if !ok {
		return nil, errors.New("the Layers diagram's fence is not closed")
	}
	var lines []string
	for _, line := range strings.Split(block, "\n") {
		if strings.TrimSpace(line) != "" {
			lines = append(lines, line)
		}
	}
	return lines, nil
}

func expandEntry(entry string, pkgs []string) ([]string, error) {
	if dir, ok := strings.CutSuffix(entry, "/*"); ok {
		var out []string
		for _, p := range pkgs {
			if p != rootName && path.Dir(p) == dir {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s: no package lies directly under %s", entry, dir)
		}
		return out, nil
	}
	if !slices.Contains(pkgs, entry) {
		return nil, fmt.Errorf("%s is no package of the module: correct the name, or remove it", entry)
	}
	return []string{entry}, nil
}

// importRules are the numbered rules under "### Import rules", each on one
// line.
func importRules(doc string) map[int]string {
	rules := map[int]string{}
	_, section, ok := strings.Cut(doc, "\n### Import rules\n")
	if !ok {
		return rules
	}
	if end := strings.Index(section, "\n#"); end >= 0 {
		section = section[:end]
	}
	item := regexp.MustCompile(`^(\d+)\. (.*)`)
	n := 0
	for _, line := range strings.Split(section, "\n") {
		if m := item.FindStringSubmatch(line); m != nil {
			n, _ = strconv.Atoi(m[1])
			rules[n] = m[2]
		} else if n > 0 && strings.HasPrefix(line, "   ") {
			rules[n] += " " + strings.TrimSpace(line)
		} else {
			n = 0
		}
	}
	return rules
}

// quote is the first sentence of rule n that contains part, as the
// document words it.
func quote(rules map[int]string, n int, part string) string {
	for _, s := range regexp.MustCompile(`[.] `).Split(rules[n]+" ", -1) {
		if s = strings.TrimSpace(s); s != "" && strings.Contains(s, part) {
			return fmt.Sprintf("rule %d of %s: %q", n, architectureDoc, strings.TrimSuffix(s, ".")+".")
		}
	}
	return fmt.Sprintf("rule %d of %s (which no longer says %q)", n, architectureDoc, part)
}

// modelFamilies are the packages the table's row "the model families"
// names: `engine/linear`, `gda`... (a bare name is a sibling of the first).
func modelFamilies(doc string) ([]string, error) {
	for _, line := range strings.Split(doc, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(strings.TrimSpace(cells[2]), "the model families") {
			continue
		}
		var out []string
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			name := m[1]
			if !strings.Contains(name, "/") && len(out) > 0 {
				name = path.Join(path.Dir(out[0]), name)
			}
			out = append(out, name)
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	return nil, errors.New(`its package table has no row for "the model families"`)
}

// under says whether package p is dir or lies below it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// drawsOnTerminal says whether an import outside the module is one of the
// terminal-drawing modules of rule 1.
func drawsOnTerminal(imp string) bool {
	for _, prefix := range []string{"charm.land/", "github.com/charmbracelet/", "github.com/guptarohit/asciigraph"} {
		if strings.HasPrefix(imp, prefix) {
			return true
		}
	}
	return strings.Contains(imp, "lipgloss") || strings.Contains(imp, "colorprofile")
}

// standard says whether an import path is the standard library's.
func standard(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

func TestArchitecture(t *testing.T) {
	raw, err := os.ReadFile(architectureDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	g := loadModule(t)
	rules := importRules(doc)
	for n := 1; n <= 4; n++ {
		if rules[n] == "" {
			t.Errorf("%s has no import rule %d under \"### Import rules\"", architectureDoc, n)
		}
	}
	families, err := modelFamilies(doc)
	if err != nil {
		t.Errorf("%s: %v", architectureDoc, err)
	}
	for _, f := range families {
		if g.pkgs[f] == nil {
			t.Errorf("%s names %s among the model families, but it is no package of the module", architectureDoc, f)
		}
	}
	l, err := parseLayers(doc, g.names())
	if err != nil {
		t.Errorf("%s, Layers: %v", architectureDoc, err)
	}
	for _, p := range g.names() {
		if _, ok := l.level[p]; !ok {
			t.Errorf("%s is not in the Layers diagram of %s: place it there, on a line below every package that imports it and above every package it imports", p, architectureDoc)
		}
	}

	familyOf := func(p string) string {
		for _, f := range families {
			if under(p, f) {
				return f
			}
		}
		return ""
	}
	frontEnd := func(p string) bool {
		return under(p, "tui") || under(p, "cli") || under(p, "serve") || under(p, "themes") || under(p, "report")
	}
	for _, e := range g.edges() {
		// The diagram: a package's own code imports lines below its own,
		// and a tests-only package is imported by tests.
		from, fromOK := l.level[e.from]
		to, toOK := l.level[e.to]
		if e.inModule && !e.test && fromOK && toOK {
			switch {
			case to > from:
				t.Errorf("%s, which is on a line above its own in the Layers diagram of %s (%q is above %q): each package imports only packages on lines below its own",
					e, architectureDoc, l.lines[to], l.lines[from])
			case to == from:
				t.Errorf("%s, which is on its own line of the Layers diagram of %s (%q): packages on one line never import each other",
					e, architectureDoc, l.lines[from])
			}
		}
		if e.inModule && !e.test && l.testsOnly[e.to] && !l.testsOnly[e.from] {
			t.Errorf("%s, which the Layers diagram of %s marks (tests only): only tests import it", e, architectureDoc)
		}

		// Rule 1: the engine computes; front ends draw.
		if under(e.from, "engine") && (e.inModule && frontEnd(e.to) || !e.inModule && drawsOnTerminal(e.to)) {
			t.Errorf("%s: %s", e, quote(rules, 1, "never imports"))
		}

		// Rule 2: data without models.
		if under(e.from, "datasets") && e.inModule {
			if under(e.to, "engine") {
				t.Errorf("%s: %s", e, quote(rules, 2, "never imports"))
			} else if !e.test && !under(e.to, "datasets") && e.to != "advice" && e.to != "numfmt" {
				t.Errorf("%s: %s", e, quote(rules, 2, "never imports"))
			}
		}

		// Rule 3: a family stands alone.
		if f := familyOf(e.from); f != "" {
			other := familyOf(e.to)
			switch {
			case e.inModule && other != "" && other != f:
				t.Errorf("%s, another family: %s", e, quote(rules, 3, "never another family"))
			case e.test:
			case e.inModule && other != f && !slices.Contains([]string{"engine", "datasets", "engine/kernel", "numfmt", "advice"}, e.to):
				t.Errorf("%s: %s", e, quote(rules, 3, "never another family"))
			case !e.inModule && !standard(e.to) && !strings.HasPrefix(e.to, "gonum.org/v1/gonum/"):
				t.Errorf("%s, neither the standard library nor gonum: %s", e, quote(rules, 3, "never another family"))
			}
		} else if f := familyOf(e.to); f != "" && !e.test && under(e.from, "engine") && e.from != "engine/models" {
			t.Errorf("%s, a family: %s", e, quote(rules, 3, "Only `engine/models`"))
		}

		// Rule 4: the lab is the front ends'.
		if e.inModule && under(e.to, "tui") && !under(e.from, "tui") && !under(e.from, "cli") && !under(e.from, "serve") ||
			e.inModule && under(e.to, "serve") && !under(e.from, "serve") && !under(e.from, "cli") ||
			e.inModule && e.to == "tui" && under(e.from, "tui/widgets") {
			t.Errorf("%s: %s", e, quote(rules, 4, "never imports"))
		}
	}

	// Rule 1 holds through the rest of the module too: no package the
	// engine's own code builds on draws (a front end it reached would be
	// named above, where an import leads to it).
	reported := map[string]bool{}
	for _, p := range g.names() {
		if !under(p, "engine") {
			continue
		}
		for _, dep := range g.pkgs[p].Deps {
			q, in := g.name(dep)
			if !in || under(q, "engine") || frontEnd(q) {
				continue
			}
			for _, imp := range g.pkgs[q].Imports {
				if drawsOnTerminal(imp) && !reported[q+" "+imp] {
					reported[q+" "+imp] = true
					t.Errorf("%s builds on %s, which imports %s: %s", p, q, imp, quote(rules, 1, "never imports"))
				}
			}
		}
	}
}

// The diagram's syntax, on a made-up module: tiers from the bottom, names
// separated by spaces or commas, "dir/*" for the packages directly under
// dir, "(tests only)" after a name or after names joined by commas.
func TestLayersDiagramSyntax(t *testing.T) {
	pkgs := []string{rootName, "cli", "tui", "tui/screens/data", "tui/screens/model", "tui/screens/model/form", "engine", "internal/a", "internal/b", "x"}
	doc := "intro\n\n## Layers\n\n```\nmain.go\ncli\ntui   tui/screens/*\ntui/screens/model/form  internal/a, internal/b (tests only)\nengine    x (tests only)\n```\n\ntext\n"
	l, err := parseLayers(doc, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{rootName: 4, "cli": 3, "tui": 2, "tui/screens/data": 2, "tui/screens/model": 2, "tui/screens/model/form": 1,
		"internal/a": 1, "internal/b": 1, "engine": 0, "x": 0}
	for p, lvl := range want {
		if got, ok := l.level[p]; !ok || got != lvl {
			t.Errorf("%s on line %d from the bottom (placed: %v), want %d", p, got, ok, lvl)
		}
	}
	for p := range want {
		if marked := p == "internal/a" || p == "internal/b" || p == "x"; l.testsOnly[p] != marked {
			t.Errorf("%s marked tests only: %v, want %v", p, l.testsOnly[p], marked)
		}
	}
	if len(l.lines) != 5 || l.lines[0] != "engine    x (tests only)" || l.lines[4] != "main.go" {
		t.Errorf("the lines, bottom first: %q", l.lines)
	}

	for _, tc := range []struct{ diagram, problem string }{
		{"cli\nengine\nnope", "nope is no package"},
		{"cli\nengine/*", "no package lies directly under engine"},
		{"cli tui\ntui", "places tui twice"},
		{"cli (lab)\nengine", `only "(tests only)" may follow a name`},
	} {
		_, err := parseLayers("## Layers\n\n```\n"+tc.diagram+"\n```\n", pkgs)
		if err == nil || !strings.Contains(err.Error(), tc.problem) {
			t.Errorf("diagram %q: error %v, want one that says %q", tc.diagram, err, tc.problem)
		}
	}
	if _, err := parseLayers("# Nothing here\n", pkgs); err == nil {
		t.Error("a document without a Layers section is accepted")
	}
}
