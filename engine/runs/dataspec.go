package runs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tealab/tealab/datasets"
)

// DataKeys are the settings a data spec may end with (ParseData), named as
// the flags of tealab train that choose the same (--target, --drop,
// --task, --format, --row-names).
var DataKeys = []string{"target", "drop", "task", "format", "row-names"}

// ParseData reads a data spec, as tealab compare's --data and the lab's
// Experimenter take it: a source as tealab train's --data takes it, then,
// after its last colon, settings that choose the file's target and
// columns as train's flags do:
//
//	wine.csv:target=class,drop=id,name
//	C:\data\x.csv:target=Class
//
// What follows the last colon is read as settings only when it is a
// key=value list (a piece without = continues drop's list); otherwise
// the whole text is the source, so a Windows drive letter (C:\x.csv), a
// path with a colon in it and a generator's knobs (moons:n=500) are read
// as before. A key=value list with a key that is not a setting is an error
// naming it, unless the whole text is a generator with knobs or an
// existing file; a file named both ways (x.csv:target=y exists, and so
// does x.csv) is refused as ambiguous. exists says whether a source names
// a file (the caller's files: a confined lab's are not the process's).
// The errors name the setting at fault, not the spec.
func ParseData(spec string, exists func(source string) bool) (Data, error) {
	spec = strings.TrimSpace(spec)
	whole := Data{Source: spec}
	i := strings.LastIndexByte(spec, ':')
	if i <= 0 {
		return whole, nil
	}
	src, tail := strings.TrimSpace(spec[:i]), spec[i+1:]
	first, _, _ := strings.Cut(tail, ",")
	if k, _, ok := strings.Cut(first, "="); !ok || !isKey(strings.TrimSpace(k)) {
		return whole, nil // C:\x.csv, data:v2.csv
	}
	settings := map[string]string{}
	var wrong, last string // wrong: the first piece that is not a setting
	for _, f := range strings.Split(tail, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, v, ok := strings.Cut(f, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok && last == "drop" {
			settings["drop"] += "," + f
			continue
		}
		if _, dup := settings[k]; ok && dup {
			return Data{}, fmt.Errorf("%s is given twice", k)
		}
		if wrong == "" && (!ok || !slices.Contains(DataKeys, k)) {
			wrong = f
		}
		settings[k], last = v, k
	}
	wholeExists, srcExists := exists(spec), exists(src)
	switch {
	case wrong != "" && (wholeExists || datasets.IsName(spec)):
		return whole, nil // moons:n=500; a file named a:b=c
	case wrong != "":
		return Data{}, fmt.Errorf("%q is not a setting of the data (after the last colon: %s, as key=value)", wrong, strings.Join(DataKeys, ", "))
	case wholeExists && srcExists:
		return Data{}, fmt.Errorf("it names a file, and so does %s with settings: rename one", src)
	case wholeExists:
		return whole, nil
	}
	d := Data{Source: src, Target: settings["target"], Task: settings["task"], Format: settings["format"]}
	if rn, ok := settings["row-names"]; ok {
		var err error
		if d.RowNames, err = ParseRowNames(rn); err != nil {
			return Data{}, fmt.Errorf("row-names=%v", err)
		}
	}
	if _, ok := settings["task"]; ok {
		if _, err := datasets.ParseTask(d.Task); err != nil {
			return Data{}, fmt.Errorf("task=%v", err)
		}
	}
	if _, ok := settings["format"]; ok && !slices.Contains(datasets.Formats, d.Format) {
		return Data{}, fmt.Errorf("format=%q: use one of %s", d.Format, strings.Join(datasets.Formats, ", "))
	}
	if t, ok := settings["target"]; ok && t == "" {
		return Data{}, fmt.Errorf("target= names no column")
	}
	for _, name := range strings.Split(settings["drop"], ",") {
		if name = strings.TrimSpace(name); name != "" {
			d.Drop = append(d.Drop, name)
		}
	}
	return d, nil
}

// Spec is the data as ParseData reads them back: the source, then its
// settings after a colon ("wine.csv:target=class,drop=id,name").
func (d Data) Spec() string {
	var s []string
	if d.Target != "" {
		s = append(s, "target="+d.Target)
	}
	if len(d.Drop) > 0 {
		s = append(s, "drop="+strings.Join(d.Drop, ","))
	}
	if d.Task != "" {
		s = append(s, "task="+d.Task)
	}
	if d.Format != "" {
		s = append(s, "format="+d.Format)
	}
	if d.RowNames != "" {
		s = append(s, "row-names="+d.RowNames)
	}
	if len(s) == 0 {
		return d.Source
	}
	return d.Source + ":" + strings.Join(s, ",")
}

// isKey says whether s can be a setting's name: letters, digits, - and _.
func isKey(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) < 0
}
