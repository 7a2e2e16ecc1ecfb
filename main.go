// Command tealab is a machine-learning lab for the terminal: pick a dataset
// and a model, watch it train, inspect what it learned. Run with no
// arguments for the interactive lab; `tealab help` lists the sub-commands.
package main

import (
	"os"

	"github.com/tealab/tealab/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
