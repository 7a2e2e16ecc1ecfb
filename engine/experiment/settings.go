package experiment

import (
	"math"

	"github.com/tealab/tealab/engine"
	"github.com/tealab/tealab/engine/eval"
)

// SettingRepeats names the one evaluation setting an experiment adds to
// eval's (eval.Settings).
const SettingRepeats = "repeats"

// RepeatsSetting declares how many times an experiment draws its k-fold
// CV, beside eval's settings (eval.Run evaluates once), so that a command
// line takes it as it takes them (tealab compare --repeat).
func RepeatsSetting() eval.Setting {
	return eval.Setting{Param: engine.Param{Name: SettingRepeats, Kind: engine.Int, Default: DefaultRepeats, Min: 1, Max: math.NaN(),
		Help: "repeats of the k-fold CV, each on folds drawn from seed+repeat"}, Flag: "repeat"}
}
