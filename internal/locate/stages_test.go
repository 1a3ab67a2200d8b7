package locate_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/wants"
)

// stageWants reads a fixture's `// want "stage-…"` and `// want "re-entry:…"`
// comments: stage id -> the file:line of each site it wants.
func stageWants(t *testing.T, dir, root string) map[string][]string {
	t.Helper()
	wanted := map[string][]string{}
	for _, w := range scanWants(t, dir, root) {
		id, _, _ := strings.Cut(w.Key, ":")
		if w.None || !wants.IsStage(w.Key) {
			continue
		}
		if w.Key == wants.WatchHandler {
			id = w.Key
		}
		wanted[id] = append(wanted[id], w.At)
	}
	return wanted
}

// stageFixtures are the fixtures whose stages TestStages checks.
var stageFixtures = []string{"clientgo-plain", "clientgo-finalizer", "knative", "knative-nofinalizer", "knative-enqueueafter", "resyncflows", "dynlister"}

// knativeController is the file of knative.dev/pkg's controller.Impl at the
// version the generated fixtures pin.
const knativeController = "knative.dev/pkg@v0.0.0-20260727151759-521cb33b33dd/controller/controller.go"

// depStages are the stage sites a fixture's stages cite in a dependency,
// where no want comment can stand: a generated reconciler's watch handler
// (impl.Enqueue), the workqueue Add its enqueues end in, and the worker's
// Get, its call of the generated Reconcile and handleErr's re-adds.
var depStages = map[string]map[string][]string{
	"knative":              knativeDepStages,
	"knative-nofinalizer":  knativeDepStages,
	"knative-enqueueafter": knativeDepStages,
}

var knativeDepStages = map[string][]string{
	locate.StageWatch + ":handler": {knativeController + ":297"},
	locate.StageEnqueue:            {knativeController + ":405"},
	locate.StageDequeue:            {knativeController + ":494", knativeController + ":522", knativeController + ":545", knativeController + ":553"},
	locate.StageReentry:            {knativeController + ":405"},
}

// TestStages checks the stage sites of the client-go and generated
// fixtures against their want comments: the watch registration and handler
// of the primary type (not the secondary informer's), the enqueue, dequeue
// and read, every write of the sync (not those inside the tree's own typed
// client), and the handlers the controller's writes fire again. The sites a
// generated reconciler's stages cite in the dependency are checked against
// depStages; such a controller has no anchors (the dependency cannot be
// patched).
func TestStages(t *testing.T) {
	// The handlers a watch line goes in: every handler that reaches the
	// workqueue, each with its informer and event; the secondary
	// informer's ones too, so the log can say which informer fired.
	watches := map[string]string{
		"clientgo-plain":     "ConfigMap add, ConfigMap update, Secret add, Secret delete, Secret update",
		"clientgo-finalizer": "Secret add, Secret update, Widget add, Widget delete, Widget update",
		"resyncflows":        "ConfigMap add, ConfigMap update, Secret add, Secret delete, Secret update",
		"dynlister":          "Unstructured add, Unstructured update",
	}
	for _, name := range stageFixtures {
		t.Run(name, func(t *testing.T) {
			l := locateFixture(t, name)
			if l.err != nil {
				t.Fatalf("load: %v", l.err)
			}
			c := l.ctrls[0]
			want := stageWants(t, filepath.Join("..", "..", "testdata", "src", name), l.root)
			got, dep := map[string][]string{}, map[string][]string{}
			for _, id := range locate.StageIDs {
				row, ok := c.Stages[id]
				if !ok {
					t.Errorf("%s: missing", id)
					continue
				}
				if _, ok := row.Primary(); !ok {
					t.Errorf("%s: none (%s)", id, row.None)
				}
				for _, s := range row.Sites {
					at := fmt.Sprintf("%s:%d", s.File, s.Line)
					switch {
					case strings.Contains(s.File, "@"):
						key := id
						if id == locate.StageWatch && s.Name == "handler" {
							key += ":handler"
						}
						dep[key] = append(dep[key], at)
					case id == locate.StageWatch && s.Name == "":
						// supporting: the filter a handler sits behind
					case id == locate.StageWatch && s.Name == "handler":
						got[locate.StageWatch+":handler"] = append(got[locate.StageWatch+":handler"], at)
					case (id == locate.StageWrite || id == locate.StageReentry) && s.Name == "":
						// supporting: helper calls, the event sink, the way to the queue
					default:
						got[id] = append(got[id], at)
					}
				}
			}
			ids := append([]string{locate.StageWatch + ":handler"}, locate.StageIDs...)
			for _, id := range ids {
				sort.Strings(got[id])
				sort.Strings(want[id])
				if strings.Join(got[id], " ") != strings.Join(want[id], " ") {
					t.Errorf("%s: got %v, want %v", id, got[id], want[id])
				}
			}
			for id, sites := range depStages[name] {
				sort.Strings(dep[id])
				if strings.Join(dep[id], " ") != strings.Join(sites, " ") {
					t.Errorf("%s in the dependency: got %v, want %v", id, dep[id], sites)
				}
			}
			for id := range dep {
				if _, ok := depStages[name][id]; !ok {
					t.Errorf("%s in the dependency: got %v, want none", id, dep[id])
				}
			}
			if c.Style == locate.StyleGenerated {
				if len(c.Anchors) > 0 {
					t.Errorf("%d anchors, want none: a generated reconciler's queue and worker are not in the tree", len(c.Anchors))
				}
				return
			}
			anchors := map[string]int{}
			var watched []string
			for _, stage := range l.fileless {
				t.Errorf("%s anchor without its file", stage)
			}
			for _, an := range c.Anchors {
				anchors[an.Stage]++
				switch an.Stage {
				case locate.StageWatch:
					watched = append(watched, an.Informer+" "+an.Event)
					if an.HandlerField == nil || (an.HandlerBody != nil) != (an.HandlerName == "func literal") {
						t.Errorf("watch anchor %s %s: want the registration's field, and a literal's body", an.Informer, an.Event)
					}
				case locate.AnchorRequeue:
					if an.Requeue != locate.RequeueRateLimited {
						t.Errorf("requeue anchor %q, want the worker's AddRateLimited", an.Requeue)
					}
				case locate.StageWrite:
					if an.Unwatched != (an.Verb == locate.VerbRecord) {
						t.Errorf("write %s %s: unwatched %v; only the event records are", an.Verb, an.Target, an.Unwatched)
					}
				}
			}
			sort.Strings(watched)
			if got := strings.Join(watched, ", "); got != watches[name] {
				t.Errorf("watch anchors %s, want %s", got, watches[name])
			}
			if anchors[locate.AnchorRequeue] != 1 {
				t.Errorf("%d requeue anchors, want 1", anchors[locate.AnchorRequeue])
			}
			for _, id := range []string{locate.StageEnqueue, locate.StageDequeue, locate.StageRead} {
				if anchors[id] != 1 {
					t.Errorf("%d anchors for %s, want 1", anchors[id], id)
				}
			}
			if anchors[locate.StageWrite] != len(want[locate.StageWrite]) {
				t.Errorf("%d write anchors, want one per write (%d)", anchors[locate.StageWrite], len(want[locate.StageWrite]))
			}
		})
	}
}

// TestHandedWatch checks the watch of each controller of a generated
// reconciler handed two hand-written types (fixture knative-handed): each
// is the add handler enqueueing into the controller made for its own type,
// the mirror's through the field its handler method reads (r.impl).
func TestHandedWatch(t *testing.T) {
	l := locateFixture(t, "knative-handed")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	want := map[string]string{
		"mirror.Reconciler": "pkg/adapter/mirror/controller.go:27",
		"widget.Reconciler": "pkg/reconciler/widget/controller.go:30",
	}
	for _, c := range l.ctrls {
		w, ok := want[c.Name]
		if !ok {
			t.Errorf("unexpected controller %s", c.Name)
			continue
		}
		delete(want, c.Name)
		p, ok := c.Stages[locate.StageWatch].Primary()
		if !ok {
			t.Errorf("%s: stage-watch none (%s), want %s", c.Name, c.Stages[locate.StageWatch].None, w)
			continue
		}
		if got := fmt.Sprintf("%s:%d", p.File, p.Line); !strings.HasSuffix(got, "/"+w) {
			t.Errorf("%s: stage-watch at %s, want %s", c.Name, got, w)
		}
	}
	for name := range want {
		t.Errorf("controller %s not found", name)
	}
}
