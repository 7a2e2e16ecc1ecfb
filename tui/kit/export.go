package kit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tealab/tealab/engine/runs"
)

// Report is one file of an export: its extension and its text.
type Report struct {
	Ext, Text string
}

// maxExportNames is how many numbered names writeReports tries before it
// asks the person to tidy the directory.
const maxExportNames = 100

// writeReports writes the reports in dir as base.ext, or base-2.ext,
// base-3.ext, … the first number whose names are all free, so that an
// export never replaces a file (an earlier export, or the data). It returns
// the note the screen shows.
func writeReports(dir, base string, files ...Report) string {
	base = strings.NewReplacer("/", "_", " ", "_", string(filepath.Separator), "_").Replace(base)
	stem, err := freeStem(dir, base, files)
	if err != nil {
		return "export: " + err.Error()
	}
	var names []string
	for _, f := range files {
		name := stem + "." + f.Ext
		if err := runs.WriteFile(filepath.Join(dir, name), []byte(f.Text)); err != nil {
			return "export: " + err.Error()
		}
		names = append(names, name)
	}
	where, _ := filepath.Abs(dir)
	return fmt.Sprintf("wrote %s in %s", strings.Join(names, " and "), where)
}

// WriteReports is writeReports in the lab's export directory
// (ReportDir), its note naming no server directory.
func (c *Common) WriteReports(base string, files ...Report) string {
	return c.Hide(writeReports(c.ReportDir(), base, files...))
}

// freeStem is base, or base-N, such that no file of files exists yet.
func freeStem(dir, base string, files []Report) (string, error) {
	for n := 1; n <= maxExportNames; n++ {
		stem := base
		if n > 1 {
			stem = fmt.Sprintf("%s-%d", base, n)
		}
		free := true
		for _, f := range files {
			if _, err := os.Lstat(filepath.Join(dir, stem+"."+f.Ext)); !errors.Is(err, fs.ErrNotExist) {
				free = false
			}
		}
		if free {
			return stem, nil
		}
	}
	return "", fmt.Errorf("%s.%s to %s-%d.%s are all taken in %s; move some away", base, files[0].Ext, base, maxExportNames, files[0].Ext, dir)
}
