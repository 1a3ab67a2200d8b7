package stages_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
// patched tree builds, every stage is logged once (every write and every
// handler once), and patching again changes nothing.
func TestPatch(t *testing.T) {
	for _, name := range []string{"clientgo-plain", "clientgo-finalizer", "clientgo-logonly"} {
		t.Run(name, func(t *testing.T) {
			// Each fixture is analysed twice and built once, about ten
			// seconds of CPU: make test patches two, test-heavy all three.
			if testing.Short() && name == "clientgo-logonly" {
				t.Skip("heavy: make test-heavy runs it")
			}
			dir := filepath.Join(t.TempDir(), name)
			if err := os.CopyFS(dir, os.DirFS(fixture(filepath.Join("src", name)))); err != nil {
				t.Fatal(err)
			}
			c := controllerOf(t, dir)
			if got, want := strings.Join(stages.WatchedKinds(c), ", "), map[string]string{"clientgo-plain": "ConfigMap, Secret", "clientgo-finalizer": "Secret, Widget", "clientgo-logonly": "ConfigMap"}[name]; got != want {
				t.Errorf("watched kinds %s, want %s", got, want)
			}
			changes, err := stages.Patch(dir, instrument(t, dir, c))
			if err != nil {
				t.Fatal(err)
			}
			diff := stages.Diff(changes)
			for _, tag := range []string{"STAGE/enqueue", "STAGE/dequeue", "STAGE/read"} {
				if strings.Count(diff, `"`+tag+`"`) != 1 {
					t.Errorf("the diff does not log %s once:\n%s", tag, diff)
				}
			}
			// A watch line in each handler that reaches the workqueue,
			// naming its informer and event (a literal on one line, or a
			// named function, wrapped at its registration), and a
			// requeue line at each re-add of the worker (none in a worker
			// that only logs a failure).
			handlers, requeues := 0, 0
			for _, an := range c.Anchors {
				if an.Stage == locate.AnchorRequeue {
					requeues++
				}
				if an.Stage == locate.StageWatch {
					handlers++
					if !strings.Contains(diff, `"informer", "`+an.Informer+`", "event", "`+an.Event+`"`) {
						t.Errorf("no watch line names the %s informer's %s event:\n%s", an.Informer, an.Event, diff)
					}
				}
			}
			if n := strings.Count(diff, `"STAGE/watch"`); n != handlers {
				t.Errorf("%d STAGE/watch lines, want one per handler (%d):\n%s", n, handlers, diff)
			}
			if n, want := strings.Count(diff, `"STAGE/requeue"`), map[string]int{"clientgo-plain": 1, "clientgo-finalizer": 1}[name]; n != want || requeues != want {
				t.Errorf("%d STAGE/requeue lines (%d anchors), want %d:\n%s", n, requeues, want, diff)
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

// TestReadRealLogs reads the logs of sample-controller against a real API
// server (testdata/logs/real-run*.log, rebuilt from the report of those
// runs), and gives each episode the verdict the report argues for: a create
// that settles after a 409 and its retry; the startup replay; a create and
// a spec change 4 s later, each settling on its own; an error loop with
// backoff, not a hot loop.
func TestReadRealLogs(t *testing.T) {
	type ep struct {
		kind    stages.EpisodeKind
		passes  int
		retries int
		verdict stages.Verdict
		why     string
		causes  []string // of the passes after the first, when checked
	}
	for _, tc := range []struct {
		file string
		want map[string][]ep
	}{
		{"real-run1.log", map[string][]ep{
			"default/example-foo-2": {{stages.EpisodeCreate, 4, 1, stages.Settles, "quiet for 20s after its last line (log line 38), until the log ends", []string{
				"the echo of create Deployment (line 16), a Deployment add",
				"the echo of update Foo status (line 19), a Foo update",
				"the workqueue's retry of the pass at line 23, whose update Foo status (failed: Operation cannot be fulfilled",
			}}},
		}},
		{"real-run2.log", map[string][]ep{
			"default/example-foo-2": {{stages.EpisodeReplay, 1, 0, stages.Settles, "quiet for 27.2s", nil}},
			"default/example-foo-3": {
				{stages.EpisodeCreate, 2, 0, stages.Settles, "wrote no change that comes back, and the object stayed quiet for 4.1s", nil},
				{stages.EpisodeChange, 2, 0, stages.Settles, "quiet for 18.8s", []string{"the echo of update Deployment (line 46), a Deployment update"}},
			},
			"default/foo-clash": {{stages.EpisodeCreate, 12, 11, stages.ErrorLoop, "at gaps growing from 7ms to 5.1s", nil}},
		}},
		// Captured by make e2e from the patched fixtures against a real
		// API server (testdata/logs/real/README.md): a watch line that
		// comes while a pass runs, before that pass logs the write it
		// echoes, stays in the pass's episode.
		{"real/clientgo-plain.log", map[string][]ep{
			"kube-system/extension-apiserver-authentication": {
				{stages.EpisodeCreate, 1, 0, stages.Settles, "quiet for 29.9s", nil},
				{stages.EpisodeResync, 1, 0, stages.Settles, "quiet for 30s", nil},
				{stages.EpisodeResync, 1, 0, stages.Settles, "quiet for 8s", nil},
			},
			"kube-system/kube-apiserver-legacy-service-account-token-tracking": {
				{stages.EpisodeCreate, 1, 0, stages.Settles, "quiet for 29.9s", nil},
				{stages.EpisodeResync, 1, 0, stages.Settles, "quiet for 30s", nil},
				{stages.EpisodeResync, 1, 0, stages.Settles, "quiet for 8s", nil},
			},
			"default/app-settings": {
				{stages.EpisodeCreate, 2, 0, stages.Settles, "quiet for 29s", []string{"during the pass at line 15"}},
				{stages.EpisodeResync, 1, 0, stages.Settles, "quiet for 8s", nil},
				{stages.EpisodeChange, 2, 0, stages.Settles, "quiet for 8s", []string{"during the pass at line 47"}},
				{stages.EpisodeChange, 8, 7, stages.ErrorLoop, "at gaps growing from 10ms to 328ms", nil},
				{stages.EpisodeResync, 3, 0, stages.Settles, "quiet for 20.6s", nil},
			},
		}},
		{"real/clientgo-finalizer.log", map[string][]ep{
			"default/sample": {
				{stages.EpisodeCreate, 2, 0, stages.Settles, "quiet for 10.5s", nil},
				{stages.EpisodeChange, 2, 0, stages.Settles, "quiet for 8s", nil},
				{stages.EpisodeResync, 8, 7, stages.ErrorLoop, "at gaps growing from 14ms to 327ms", nil},
				{stages.EpisodeChange, 3, 1, stages.Settles, "quiet for 12.6s", nil},
				{stages.EpisodeChange, 2, 0, stages.NotSeenLongEnough, "quiet for 0s", nil},
			},
		}},
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
			if len(rd.Objects) != len(tc.want) {
				t.Errorf("%d objects, want %d", len(rd.Objects), len(tc.want))
			}
			for _, o := range rd.Objects {
				want := tc.want[o.Object]
				if len(o.Episodes) != len(want) {
					t.Errorf("%s: %d episodes %+v, want %d", o.Object, len(o.Episodes), o.Episodes, len(want))
					continue
				}
				for i, e := range o.Episodes {
					w := want[i]
					if e.Kind != w.kind || e.Passes != w.passes || e.Retries != w.retries || e.Verdict != w.verdict || !strings.Contains(e.Why, w.why) {
						t.Errorf("%s episode %d: %s, %d passes, %d retries, %s (%s); want %s, %d, %d, %s (%s)", o.Object, i+1, e.Kind, e.Passes, e.Retries, e.Verdict, e.Why, w.kind, w.passes, w.retries, w.verdict, w.why)
					}
					for k, cause := range w.causes {
						if k >= len(e.Reentries) || !strings.Contains(e.Reentries[k].Cause, cause) {
							t.Errorf("%s episode %d: re-entries %+v, want pass %d brought by %q", o.Object, i+1, e.Reentries, k+2, cause)
						}
					}
				}
			}
		})
	}
}

// TestEpisodeRules reads small logs in the current patch's format: the
// informer named on the watch lines attributes each re-entry, a write whose
// resourceVersion stays is a no-op, a resync is its own episode, a child's
// watch line counts for its owner's key, a watch line whose handler
// enqueues nothing (a Deployment resync, even one named like its owner)
// belongs to no life, and what the reader is told (the settle window, the
// watched kinds) changes the reading.
func TestEpisodeRules(t *testing.T) {
	const create = `I0601 10:00:00.000000 1 c.go:1] "Starting workers"
I0601 10:00:01.000000 1 c.go:10] "STAGE/watch" handler="enqueueFoo" informer="Foo" event="add" object="default/f"
I0601 10:00:01.000100 1 c.go:20] "STAGE/enqueue" key="default/f"
I0601 10:00:01.000200 1 c.go:30] "STAGE/dequeue" key="default/f" queueLen=0
I0601 10:00:01.000300 1 c.go:40] "STAGE/read" object="default/f" resourceVersion="10"
I0601 10:00:01.001000 1 c.go:50] "STAGE/write" verb="create" target="Deployment" object="default/f" err=null
I0601 10:00:01.002000 1 c.go:11] "STAGE/watch" handler="handleObject" informer="Deployment" event="add" object="default/f-dep"
I0601 10:00:01.002100 1 c.go:20] "STAGE/enqueue" key="default/f"
I0601 10:00:01.003000 1 c.go:60] "STAGE/write" verb="update" target="Foo status" object="default/f" resourceVersion="12" err=null
I0601 10:00:01.003100 1 c.go:70] "STAGE/write" verb="record" target="Event about Foo" object="default/f" reenters="false"
I0601 10:00:01.003500 1 c.go:12] "STAGE/watch" handler="func literal" informer="Foo" event="update" object="default/f"
I0601 10:00:01.003600 1 c.go:20] "STAGE/enqueue" key="default/f"
I0601 10:00:01.004000 1 c.go:30] "STAGE/dequeue" key="default/f" queueLen=0
I0601 10:00:01.004100 1 c.go:40] "STAGE/read" object="default/f" resourceVersion="12"
I0601 10:00:01.005000 1 c.go:60] "STAGE/write" verb="update" target="Foo status" object="default/f" resourceVersion="12" err=null
I0601 10:00:11.000000 1 c.go:12] "STAGE/watch" handler="func literal" informer="Foo" event="update" object="default/f"
I0601 10:00:11.000100 1 c.go:20] "STAGE/enqueue" key="default/f"
I0601 10:00:11.000150 1 c.go:13] "STAGE/watch" handler="func literal" informer="Deployment" event="update" object="default/f-dep"
I0601 10:00:11.000200 1 c.go:30] "STAGE/dequeue" key="default/f" queueLen=0
I0601 10:00:11.000300 1 c.go:40] "STAGE/read" object="default/f" resourceVersion="12"
I0601 10:00:11.001000 1 c.go:60] "STAGE/write" verb="update" target="Foo status" object="default/f" resourceVersion="12" err=null
I0601 10:00:15.000000 1 c.go:14] "STAGE/watch" handler="handleObject" informer="Deployment" event="delete" object="default/f-dep"
I0601 10:00:15.000100 1 c.go:20] "STAGE/enqueue" key="default/f"
I0601 10:00:15.000200 1 c.go:30] "STAGE/dequeue" key="default/f" queueLen=0
I0601 10:00:15.000300 1 c.go:40] "STAGE/read" object="default/f" resourceVersion="12"
I0601 10:00:15.001000 1 c.go:50] "STAGE/write" verb="create" target="Deployment" object="default/f" err=null
I0601 10:00:15.002000 1 c.go:11] "STAGE/watch" handler="handleObject" informer="Deployment" event="add" object="default/f-dep"
I0601 10:00:15.002100 1 c.go:20] "STAGE/enqueue" key="default/f"
I0601 10:00:15.003000 1 c.go:30] "STAGE/dequeue" key="default/f" queueLen=0
I0601 10:00:15.003100 1 c.go:40] "STAGE/read" object="default/f" resourceVersion="12"
I0601 10:00:25.000000 1 c.go:13] "STAGE/watch" handler="func literal" informer="Deployment" event="update" object="default/f"
I0601 10:00:30.000000 1 c.go:99] "Shutting down workers"
`
	// A status write, then 300 ms later a watch line of the object: the
	// write's echo, unless the status's kind is not watched.
	const unwatched = `I0601 10:00:01.000000 1 c.go:10] "STAGE/watch" object="default/w"
I0601 10:00:01.000100 1 c.go:20] "STAGE/enqueue" key="default/w"
I0601 10:00:01.000200 1 c.go:30] "STAGE/dequeue" key="default/w"
I0601 10:00:01.000300 1 c.go:40] "STAGE/read" object="default/w" resourceVersion="5"
I0601 10:00:01.001000 1 c.go:60] "STAGE/write" verb="update" target="Widget status" object="default/w" err=null%s
I0601 10:00:01.301000 1 c.go:10] "STAGE/watch" object="default/w"
I0601 10:00:01.301100 1 c.go:20] "STAGE/enqueue" key="default/w"
I0601 10:00:01.301200 1 c.go:30] "STAGE/dequeue" key="default/w"
I0601 10:00:01.301300 1 c.go:40] "STAGE/read" object="default/w" resourceVersion="6"
I0601 10:00:20.000000 1 c.go:99] "Shutting down workers"
`
	// A JSON log whose ts counts seconds (zap's default), not klog's
	// milliseconds.
	const seconds = `{"ts":1780308001.0,"caller":"c.go:10","msg":"STAGE/watch","informer":"Job","event":"add","object":{"name":"j","namespace":"default"}}
{"ts":1780308001.0002,"caller":"c.go:30","msg":"STAGE/dequeue","key":"default/j"}
{"ts":1780308001.0003,"caller":"c.go:40","msg":"STAGE/read","object":{"name":"j","namespace":"default"},"resourceVersion":"7"}
{"ts":1780308009.5,"caller":"c.go:99","msg":"Shutting down workers"}
`
	// An earlier patch's log (no requeue lines): passes come back with no
	// watch line at a steady 2 s, a requeue after a delay, not the
	// backoff of retries after errors.
	const steady = `I0601 10:00:01.000000 1 c.go:10] "STAGE/watch" handler="enqueueJob" object="default/p"
I0601 10:00:01.000100 1 c.go:20] "STAGE/enqueue" key="default/p"
I0601 10:00:01.000200 1 c.go:30] "STAGE/dequeue" key="default/p"
I0601 10:00:01.000300 1 c.go:40] "STAGE/read" object="default/p" resourceVersion="3"
I0601 10:00:03.000200 1 c.go:30] "STAGE/dequeue" key="default/p"
I0601 10:00:03.000300 1 c.go:40] "STAGE/read" object="default/p" resourceVersion="3"
I0601 10:00:05.000200 1 c.go:30] "STAGE/dequeue" key="default/p"
I0601 10:00:05.000300 1 c.go:40] "STAGE/read" object="default/p" resourceVersion="3"
I0601 10:00:07.000200 1 c.go:30] "STAGE/dequeue" key="default/p"
I0601 10:00:07.000300 1 c.go:40] "STAGE/read" object="default/p" resourceVersion="3"
I0601 10:00:08.000000 1 c.go:99] "Shutting down workers"
`
	type ep struct {
		kind    stages.EpisodeKind
		passes  int
		verdict stages.Verdict
		why     string
	}
	for _, tc := range []struct {
		name, log string
		opts      stages.Options
		want      map[string][]ep
	}{
		{"informers name the re-entries", create, stages.Options{}, map[string][]ep{
			"default/f": {
				{stages.EpisodeCreate, 2, stages.Settles, "quiet for 10s"},
				{stages.EpisodeResync, 1, stages.Settles, "wrote no change that comes back"},
				{stages.EpisodeChange, 2, stages.Settles, "quiet for 15s"},
			},
		}},
		{"a longer settle window", create, stages.Options{Settle: 20 * time.Second}, map[string][]ep{
			"default/f": {
				{stages.EpisodeCreate, 2, stages.Settles, "wrote no change that comes back"},
				{stages.EpisodeResync, 1, stages.Settles, "wrote no change that comes back"},
				{stages.EpisodeChange, 2, stages.NotSeenLongEnough, "less than the settle window of 20s"},
			},
		}},
		{"a JSON log in seconds", seconds, stages.Options{}, map[string][]ep{
			"default/j": {{stages.EpisodeCreate, 1, stages.Settles, "quiet for 8.5s"}},
		}},
		{"a steady requeue is no error loop", steady, stages.Options{}, map[string][]ep{
			"default/p": {{stages.EpisodeCreate, 4, stages.NotSeenLongEnough, "quiet for 1s after its last line (log line 10), until the log ends, less than the settle window"}},
		}},
		{"a watched write's echo", fmt.Sprintf(unwatched, ""), stages.Options{}, map[string][]ep{
			"default/w": {{stages.EpisodeCreate, 2, stages.Settles, "1 brought back by the watch event of an own write"}},
		}},
		{"an unwatched kind, told", fmt.Sprintf(unwatched, ""), stages.Options{Watched: []string{"Deployment"}}, map[string][]ep{
			"default/w": {{stages.EpisodeCreate, 1, stages.Settles, "1 write of a kind no informer watches"}, {stages.EpisodeChange, 1, stages.Settles, "quiet for 18.7s"}},
		}},
		{"an unwatched kind, on the line", fmt.Sprintf(unwatched, ` reenters="false"`), stages.Options{}, map[string][]ep{
			"default/w": {{stages.EpisodeCreate, 1, stages.Settles, "1 write of a kind no informer watches"}, {stages.EpisodeChange, 1, stages.Settles, "quiet for 18.7s"}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd, err := stages.ReadLog(strings.NewReader(tc.log), tc.name, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(rd.Objects) != len(tc.want) {
				t.Errorf("%d objects, want %d", len(rd.Objects), len(tc.want))
			}
			for _, o := range rd.Objects {
				want := tc.want[o.Object]
				if len(o.Episodes) != len(want) {
					t.Errorf("%s: %d episodes %+v, want %d", o.Object, len(o.Episodes), o.Episodes, len(want))
					continue
				}
				for i, e := range o.Episodes {
					w := want[i]
					if e.Kind != w.kind || e.Passes != w.passes || e.Verdict != w.verdict || !strings.Contains(e.Why, w.why) {
						t.Errorf("%s episode %d: %s, %d passes, %s (%s); want %s, %d, %s (%s)", o.Object, i+1, e.Kind, e.Passes, e.Verdict, e.Why, w.kind, w.passes, w.verdict, w.why)
					}
				}
			}
		})
	}
}
