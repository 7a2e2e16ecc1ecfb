package lecture

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tealab/tealab/engine"
)

// counted is a result of the test experiment below.
type counted struct {
	Upto  int   `json:"upto"`
	Items []int `json:"items"`
}

// testExperiment counts to n, a frame a number, and stops when cancelled
// at stopAt or fails at failAt.
func testExperiment() *Experiment {
	return &Experiment{
		Name: "count-test", Title: "counting", Summary: "counts", Source: "none",
		Knobs: []engine.Param{{Name: "n", Kind: engine.Int, Default: 5, Min: 0, Max: 100, Help: "how far"},
			{Name: "fail", Kind: engine.Int, Default: -1, Min: -1, Max: 100, Help: "fail here"},
			{Name: "panic", Kind: engine.Bool, Default: false, Help: "panic at the start"}},
		Run: func(ctx context.Context, in In, show func(Frame)) (any, error) {
			if in.Values.Bool("panic") {
				panic("boom")
			}
			n := in.Values.Int("n")
			res := &counted{}
			for i := 1; i <= n; i++ {
				if err := ctx.Err(); err != nil {
					return res, err
				}
				if i == in.Values.Int("fail") {
					return res, errors.New("failed at " + string(rune('0'+i)))
				}
				res = &counted{Upto: i, Items: append(append([]int{}, res.Items...), i)}
				show(Frame{Result: res, Done: i, Total: n})
			}
			return res, nil
		},
		Decode: DecodeAs[counted],
	}
}

func TestStartRecordsHowItEnded(t *testing.T) {
	e := testExperiment()
	run := func(ctx context.Context, settings map[string]string) (*Record, []Frame) {
		v, err := e.Parse(settings)
		if err != nil {
			t.Fatal(err)
		}
		var frames []Frame
		return Start(ctx, e, In{Values: v}, func(f Frame) { frames = append(frames, f) }), frames
	}
	rec, frames := run(context.Background(), map[string]string{"n": "3"})
	if rec.Status != Done || rec.Result.(*counted).Upto != 3 || len(frames) != 3 || frames[2].Done != 3 || frames[2].Total != 3 {
		t.Errorf("done: %+v, %d frames", rec, len(frames))
	}
	if got := rec.Settings(); got["n"] != "3" || got["fail"] != "-1" {
		t.Errorf("settings %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rec, _ := run(ctx, nil); rec.Status != Cancelled || rec.Result == nil {
		t.Errorf("cancelled: %+v", rec)
	}
	if rec, _ := run(context.Background(), map[string]string{"fail": "2"}); rec.Status != Failed || rec.Error != "failed at 2" {
		t.Errorf("failed: %+v", rec)
	}
	if rec, _ := run(context.Background(), map[string]string{"panic": "true"}); rec.Status != Failed || !strings.Contains(rec.Error, "boom") {
		t.Errorf("a panic: %+v", rec)
	}
}

func TestRecordRoundTripsThroughItsExperiment(t *testing.T) {
	e := testExperiment()
	registry[e.Name] = e
	defer delete(registry, e.Name)
	v, _ := e.Parse(map[string]string{"n": "4"})
	rec := Start(context.Background(), e, In{Values: v}, nil)
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	got, ok := back.Result.(*counted)
	if !ok || got.Upto != 4 || len(got.Items) != 4 || back.Status != Done || back.Settings()["n"] != "4" {
		t.Fatalf("read back %+v (%T) from %s", back, back.Result, b)
	}
	// An experiment this build does not know keeps its result as JSON.
	var other Record
	if err := json.Unmarshal([]byte(`{"experiment":"from-the-future","args":[],"status":"done","result":{"x":1}}`), &other); err != nil {
		t.Fatal(err)
	}
	if raw, ok := other.Result.(json.RawMessage); !ok || string(raw) != `{"x":1}` {
		t.Errorf("unknown experiment's result %T %v", other.Result, other.Result)
	}
	if err := json.Unmarshal([]byte(`{"args":[],"status":"done"}`), &other); err == nil {
		t.Error("a record without its experiment's name was read")
	}
}

func TestRegisterRefusesIncompleteExperiments(t *testing.T) {
	for _, e := range []Experiment{
		{Name: "x"},
		{Name: "x", Title: "t", Summary: "s", Source: "src"},
		{Name: "x", Title: "t", Summary: "s", Source: "src", Run: testExperiment().Run, Decode: DecodeAs[counted], Data: "nope"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v registered", e.Name)
				}
			}()
			Register(e)
		}()
		delete(registry, "x")
	}
}

func TestEveryExperimentIsComplete(t *testing.T) {
	names := map[string]bool{}
	for _, e := range All() {
		names[e.Name] = true
		for _, p := range e.Knobs {
			if p.Help == "" {
				t.Errorf("%s: knob %s has no help", e.Name, p.Name)
			}
			if _, err := p.ParseValue(engine.Format(p.Default)); err != nil {
				t.Errorf("%s: knob %s's default does not parse: %v", e.Name, p.Name, err)
			}
		}
	}
	for _, n := range order {
		if !names[n] {
			t.Errorf("experiment %s is not registered", n)
		}
	}
}
