package engine

import (
	"sync/atomic"
	"testing"
)

// A panic in a worker reaches the caller, after every worker stopped,
// where a recover can turn it into an error.
func TestWorkersRaisePanicsInTheCaller(t *testing.T) {
	var ran atomic.Int32
	got := func() (p any) {
		defer func() { p = recover() }()
		Workers(4, func() {
			if ran.Add(1) == 2 {
				panic("worker broke")
			}
		})
		return nil
	}()
	if got != "worker broke" || ran.Load() != 4 {
		t.Errorf("recovered %v after %d workers ran", got, ran.Load())
	}
}
