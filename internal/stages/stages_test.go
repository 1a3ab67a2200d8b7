package stages_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/stages"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", name) }

// controllerOf analyses the module in dir and returns its one controller.
func controllerOf(t *testing.T, dir string) locate.Controller {
	t.Helper()
	tr, err := inspect.Tree(context.Background(), dir, "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := inspect.Select(tr, "", "--kind")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// instrument writes the probes of a controller's stage anchors.
func instrument(t *testing.T, dir string, c locate.Controller) *stages.Instrumentation {
	t.Helper()
	ins, err := stages.Instrument(dir, c.Anchors)
	if err != nil {
		t.Fatal(err)
	}
	return ins
}

// TestPatch patches a copy of each client-go fixture: the diff applies, the
// patched tree builds, every stage is logged once (every write once), and
// patching again changes nothing.
func TestPatch(t *testing.T) {
	for _, name := range []string{"clientgo-plain", "clientgo-finalizer"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			if err := os.CopyFS(dir, os.DirFS(fixture(filepath.Join("src", name)))); err != nil {
				t.Fatal(err)
			}
			c := controllerOf(t, dir)
			changes, err := stages.Patch(dir, instrument(t, dir, c))
			if err != nil {
				t.Fatal(err)
			}
			diff := stages.Diff(changes)
			for _, tag := range []string{"STAGE/watch", "STAGE/enqueue", "STAGE/dequeue", "STAGE/read"} {
				if strings.Count(diff, `"`+tag+`"`) != 1 {
					t.Errorf("the diff does not log %s once:\n%s", tag, diff)
				}
			}
			writes := 0
			for _, s := range c.Stages[locate.StageWrite].Sites {
				if s.Name != "" {
					writes++
				}
			}
			if n := strings.Count(diff, `"STAGE/write"`); n != writes {
				t.Errorf("%d STAGE/write lines, want one per write (%d):\n%s", n, writes, diff)
			}
			if err := stages.Write(changes); err != nil {
				t.Fatal(err)
			}
			build := exec.Command("go", "build", "./...")
			build.Dir = dir
			build.Env = append(os.Environ(), "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("the patched tree does not build: %v\n%s\n%s", err, out, diff)
			}
			again, err := stages.Patch(dir, instrument(t, dir, controllerOf(t, dir)))
			if err != nil {
				t.Fatal(err)
			}
			if d := stages.Diff(again); d != "" {
				t.Errorf("patching the patched tree changes it:\n%s", d)
			}
		})
	}
}

// TestReadLog reads the log fixtures: a life that settles (create, two
// passes, the last writing nothing but an event) and a hot loop.
func TestReadLog(t *testing.T) {
	for _, tc := range []struct {
		file           string
		object         string
		passes, writes int
		verdict        stages.Verdict
		reason         string
	}{
		{"settles.log", "default/app-config", 2, 3, stages.Settles, "quiet for 20s after its last line"},
		{"hotloop.json.log", "default/w1", 4, 5, stages.HotLoop, "resourceVersion differs on every pass (2001 → 2003 → 2004 → 2005)"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(fixture(filepath.Join("logs", tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rd, err := stages.ReadLog(f, tc.file, stages.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(rd.Objects) != 1 {
				t.Fatalf("objects %+v, want one", rd.Objects)
			}
			o := rd.Objects[0]
			if o.Object != tc.object || o.Passes != tc.passes || o.Counts["write"] != tc.writes || o.Verdict != tc.verdict || !strings.Contains(o.Why, tc.reason) {
				t.Errorf("got %+v, want %s with %d passes, %d writes, %s (%s)", o, tc.object, tc.passes, tc.writes, tc.verdict, tc.reason)
			}
			for _, l := range rd.Lines {
				if l.At == "" || l.Stage == "" {
					t.Errorf("line %d: no stage or printing statement: %+v", l.N, l)
				}
			}
		})
	}
}

// TestReadLogWithoutStages names the log and gives ErrNoStageLines as the
// cause, for the CLI to say how to get STAGE lines.
func TestReadLogWithoutStages(t *testing.T) {
	_, err := stages.ReadLog(strings.NewReader("I0601 10:00:00.000000 1 main.go:1] \"hello\"\n"), "x.log", stages.Options{})
	if err == nil || !strings.Contains(err.Error(), "x.log") || !errors.Is(err, stages.ErrNoStageLines) {
		t.Errorf("got %v", err)
	}
}
