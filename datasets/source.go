package datasets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Entry describes one built-in set or generator for menus and `tealab datasets`.
type Entry struct {
	Name    string
	Kind    string // "builtin" or "generator"
	Summary string
	Rows    int // rows (a generator's default n)
	Cols    int // feature columns, the target not counted (a generator's default)
	Task    Task
	Knobs   []Knob // a generator's knobs, in the order Source spells them; nil for built-ins
}

// Catalog lists the built-in sets, then the generators. It parses nothing, so
// it is cheap enough to call while a UI starts.
func Catalog() []Entry {
	out := make([]Entry, 0, len(builtins)+len(generators))
	for _, b := range builtins {
		out = append(out, Entry{Name: b.name, Kind: "builtin", Summary: b.summary,
			Rows: b.rows, Cols: b.features, Task: b.task})
	}
	for _, g := range generators {
		def := make(map[string]float64, len(g.knobs))
		for _, k := range g.knobs {
			def[k.Name] = k.Default
		}
		out = append(out, Entry{Name: g.name, Kind: "generator", Summary: g.summary,
			Rows: int(def["n"]), Cols: g.dims(def), Task: g.task,
			Knobs: append([]Knob(nil), g.knobs...)})
	}
	return out
}

// Stdin is the source that reads standard input (OpenFormat).
const Stdin = "-"

// OpenFormat is Open with the file format forced ("csv", "tsv", "arff";
// "" tells it by the name and the bytes). The source Stdin reads standard
// input, which has no name to go by and cannot seek.
func OpenFormat(source, format string) (*Table, error) {
	if format != "" && !slices.Contains(Formats, format) {
		return nil, fmt.Errorf("format %q: use one of %s", format, strings.Join(Formats, ", "))
	}
	if strings.TrimSpace(source) == Stdin {
		return ReadFrom(os.Stdin, "stdin", format)
	}
	if format == "" {
		return Open(source)
	}
	if _, err := os.Stat(source); err != nil {
		return nil, fmt.Errorf("data source %q read as %s: %w", source, format, err)
	}
	return loadFile(source, format)
}

// Open reads a data source as the CLI's --data flag spells it:
//   - a built-in name: "iris", "wine", "breast_cancer", "digits", "diabetes";
//   - a generator with optional knobs: "moons", "moons:n=500,noise=0.3,seed=7",
//     or the form Table.Source records, "moons(n=500, noise=0.3, seed=7)";
//   - otherwise a file path, read by LoadFile.
//
// Names are matched before files, case-insensitively: write "./iris" to read a
// file called iris.
func Open(source string) (*Table, error) {
	s := strings.TrimSpace(source)
	if s == "" {
		return nil, fmt.Errorf("no data source given: %s", validSources())
	}
	name, args, hasArgs := splitSource(s)
	lname := strings.ToLower(name)
	if b := findBuiltin(lname); b != nil && hasArgs {
		if strings.TrimSpace(args) != "" {
			return nil, fmt.Errorf("built-in %s takes no knobs (got %q); only generators do (%s)",
				lname, args, strings.Join(generatorNames(), ", "))
		}
		return b.load()
	}
	if g := findGenerator(lname); g != nil && hasArgs {
		knobs, err := parseKnobs(g.name, args)
		if err != nil {
			return nil, err
		}
		return Generate(g.name, knobs)
	}
	if b := findBuiltin(strings.ToLower(s)); b != nil {
		return b.load()
	}
	if g := findGenerator(strings.ToLower(s)); g != nil {
		return Generate(g.name, nil)
	}
	if _, err := os.Stat(s); err != nil && errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("data source %q: no such file, and not a built-in or generator name: %s", s, validSources())
	}
	return LoadFile(s)
}

// IsName reports whether Open reads source as a built-in or a generator
// rather than as a file, so that a caller confining files (tealab serve)
// checks only the names that are files.
func IsName(source string) bool {
	s := strings.TrimSpace(source)
	name, _, hasArgs := splitSource(s)
	if hasArgs && (findBuiltin(strings.ToLower(name)) != nil || findGenerator(strings.ToLower(name)) != nil) {
		return true
	}
	return findBuiltin(strings.ToLower(s)) != nil || findGenerator(strings.ToLower(s)) != nil
}

// Provenance is the Source that Open's table records for a built-in or a
// generator ("builtin:iris", "moons(n=500, noise=0.3, seed=7)"), worked out
// without reading or drawing the data, so that two spellings of one source
// ("IRIS" and "iris"; "moons:seed=7" and "moons(seed=7, n=500)") are known
// to be the same data. ok is false for a file, or a source Open refuses.
func Provenance(source string) (prov string, ok bool) {
	s := strings.TrimSpace(source)
	name, args, hasArgs := splitSource(s)
	if !hasArgs || (findBuiltin(strings.ToLower(name)) == nil && findGenerator(strings.ToLower(name)) == nil) {
		name, args = s, "" // as Open does: the whole source as a name
	}
	lname := strings.ToLower(name)
	if b := findBuiltin(lname); b != nil && strings.TrimSpace(args) == "" {
		return builtinSource(b.name), true
	}
	g := findGenerator(lname)
	if g == nil {
		return "", false
	}
	knobs, err := parseKnobs(g.name, args)
	if err != nil {
		return "", false
	}
	v, err := g.resolve(knobs)
	if err != nil {
		return "", false
	}
	return g.describe(v), true
}

func validSources() string {
	return "give a file path (.csv, .tsv, .arff, optionally .gz), a built-in (" +
		strings.Join(builtinNames(), ", ") + ") or a generator (" + strings.Join(generatorNames(), ", ") +
		"; knobs as in moons:n=500,noise=0.3,seed=7)"
}

// splitSource splits "name:args" or "name(args)". hasArgs is false when the
// source has neither form.
func splitSource(s string) (name, args string, hasArgs bool) {
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		return strings.TrimSpace(s[:i]), s[i+1 : len(s)-1], true
	}
	if i := strings.IndexByte(s, ':'); i > 0 {
		return strings.TrimSpace(s[:i]), s[i+1:], true
	}
	return s, "", false
}

// parseKnobs reads "n=500,noise=0.3" (commas or spaces between knobs). Ranges
// and knob names are checked by Generate.
func parseKnobs(gen, args string) (map[string]float64, error) {
	knobs := map[string]float64{}
	fields := strings.FieldsFunc(args, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%s: knob %q is not name=value (e.g. %s:n=500,noise=0.3)", gen, f, gen)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return nil, fmt.Errorf("%s: knob %s=%q is not a number", gen, k, v)
		}
		if _, dup := knobs[k]; dup {
			return nil, fmt.Errorf("%s: knob %s given twice", gen, k)
		}
		knobs[k] = x
	}
	return knobs, nil
}
