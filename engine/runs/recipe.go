package runs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tealab/tealab/datasets"
	"github.com/tealab/tealab/engine"
)

// A recipe is a run's setup and nothing of its result: the "recipe"
// section of a saved run, alone in a file ({"recipe": {...}}), so that
// Load reads a recipe and a saved run alike. Replaying either with Again
// repeats the run: the same data, model, parameters, folds and seed give
// the same metrics.

// SaveRecipe writes the run's recipe to path as indented JSON (WriteFile,
// after CheckTarget).
func SaveRecipe(path string, r *Record) error {
	if err := CheckTarget(path, r.Inputs()...); err != nil {
		return err
	}
	b, err := RecipeJSON(r)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return WriteFile(path, b)
}

// RecipeJSON is the run's recipe as a file holds it.
func RecipeJSON(r *Record) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	err := enc.Encode(struct {
		Recipe recipe `json:"recipe"`
	}{r.recipe()})
	return b.Bytes(), err
}

// Again makes a new record, numbered id, that repeats r: its data opened
// again from their source, its model looked up, its parameters and
// evaluation as they were. changed is "" or a warning that the data
// differ from those the run read (DataChanged); the new record carries the
// fingerprint of the data it will read.
func (r *Record) Again(id int) (again *Record, changed string, err error) {
	spec, err := engine.Lookup(r.Model)
	if err != nil {
		return nil, "", err
	}
	d, err := r.Data.Open()
	if err != nil {
		return nil, "", unread(r.Data.Source, err)
	}
	changed = DataChanged(r.Data, d)
	data := r.Data
	data.Drop = append([]string(nil), r.Data.Drop...)
	if data.Hash, err = HashData(data, d); err != nil {
		return nil, "", err
	}
	opt := r.Options
	if opt.Test, err = data.OpenTest(d); err != nil { // a supplied test set is read again too
		return nil, "", unread(data.Test, err)
	}
	return New(id, data, d, spec, r.Params, opt), changed, nil
}

// unread words an error reading the data a recipe names without what the
// file holds: a recipe may come from someone else and name any file (a
// key, a password file), whose first line the reader's messages would
// quote as a header or a value. What a system call said (no such file,
// permission denied) is kept; for the rest the file's own command says
// more, to the person who chose to read it.
func unread(source string, err error) error {
	var pe *fs.PathError
	if _, serr := os.Stat(source); serr != nil || errors.As(err, &pe) || datasets.IsName(source) {
		return err // no file, or a name: nothing of a file's content in the message
	}
	where := ""
	if p := (*datasets.ParseError)(nil); errors.As(err, &p) && p.Line > 0 {
		where = fmt.Sprintf(" (at line %d)", p.Line)
	}
	return fmt.Errorf("data %s cannot be read as the recipe says%s (what the file holds is not repeated here, since a recipe may name any file); describe the data to see why",
		datasets.Printable(source), where)
}
