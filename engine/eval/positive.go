package eval

import (
	"fmt"
	"strings"

	"github.com/tealab/tealab/datasets"
)

// PositiveClass is the code of the positive class Options.Positive names
// on d: the class of a two-class target that the binary metrics and the
// curves are about. An empty name is the rarer class of the data, and on a
// tie the second (as scikit-learn's pos_label=1 is for classes 0 and 1).
// Without two classes it is -1, and a name is a *SettingError, as is a
// name that is not a class of the target (the error names the valid ones).
func PositiveClass(d *datasets.Dataset, name string) (int, error) {
	name = strings.TrimSpace(name)
	s, _ := LookupSetting(SettingPositive)
	refuse := func(format string, args ...any) (int, error) {
		return -1, &SettingError{Name: s.Name, Flag: s.Flag, Reason: fmt.Sprintf(format, args...)}
	}
	target := "the target"
	if d.Target != nil {
		target += " " + d.Target.Name
	}
	switch {
	case d.Task != datasets.Classification || len(d.Classes) != 2:
		if name == "" {
			return -1, nil
		}
		if d.Task != datasets.Classification {
			return refuse("%q: %s has no classes (%s); a positive class is chosen for two classes only: leave it out", name, target, d.Task)
		}
		return refuse("%q: %s has %d classes (%s); a positive class is chosen for two classes only, more are scored one class against the rest: leave it out",
			name, target, len(d.Classes), strings.Join(d.Classes, ", "))
	case name == "":
		counts := d.ClassCounts()
		if counts[0] < counts[1] {
			return 0, nil
		}
		return 1, nil
	}
	for c, l := range d.Classes {
		if l == name {
			return c, nil
		}
	}
	return refuse("%q is not a class of %s (valid: %s)", name, target, strings.Join(d.Classes, ", "))
}
