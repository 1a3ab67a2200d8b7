package locate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/wants"
)

// fixtures are the controller trees under testdata/src, each stating its
// expected sites in `// want "row"` comments. A fixture holding several
// controllers names the controller a want is about: `// want
// "LabelReconciler/reread"`; a want that names none is about every one.
var fixtures = []string{
	"clientgo-finalizer",
	"clientgo-plain",
	"clientgo-logonly",
	"kubebuilder",
	"flux",
	"resultbuilder",
	"ctrlnew",
	"samekind",
	"childwait",
	"crknative",
	"kindiface",
	"valueflow",
	"sharedworker",
	"condhelpers",
	"illtyped",
	"syncers",
	"linedir",
	"finproof",
	"depqueue",
	"condflows",
	"requeueflows",
	"multireg",
	"generics",
	"layeredworker",
	"splitkeyworker",
	"depworker",
	"illtypedsync",
	"eventqueue",
	"selfhandled",
	"statusapply",
	"protoqueue",
	"missedreg",
	"reflectcond",
	"condcopy",
	"reportwait",
	"dynlister",
	"scopedread",
	"listedread",
	"flagdeletion",
	"wrappedkind",
	"offpathfinalizer",
	"genericwrap",
	"metawatch",
	"knative",
	"knative-nofinalizer",
	"knative-enqueueafter",
	"knative-handed",
	"knative-shapes",
	"knative-handoff",
	"knative-legacyfin",
	"knative-finwrite",
	"knative-depgen",
	"knative-delegated",
	"knative-handwritten",
	"existingobject",
	"deferdelegate",
	"finapply",
	"findispatch",
	"finlib",
	"finnoguard",
	"wrapped",
	"answerflows",
	"earlyend",
	"sharedbase",
	"reportedresult",
	"handedpair",
	"restdelegate",
	"varhandler",
	"identityfilter",
	"statuspatch",
	"phaseresult",
	"loggedwait",
	"hothelper",
	"driftclosure",
	"branchhelpers",
	"retrythreshold",
	"loopwait",
	"driftchanges",
	"driftequalleave",
	"driftguards",
	"resultdelegate",
	"namespacelist",
	"objectmatcher",
	"failuremapper",
	"handedflag",
	"libwrites",
	"intervalflows",
	"resyncflows",
	"embedworker",
	"ownbuilder",
	"ifacekind",
	"condtargets",
	"requeuehelpers",
	"queuewait",
	"finlookup",
	"statusfinish",
	"steadyflows",
	"applyflows",
	"timerqueue",
	"requeueorder",
	"joinedresult",
	"helperwait",
	"callpaths",
	"dynworker",
	"finfall",
	"finremovehelper",
	"regflows",
	"splitsync",
	"delegaterest",
	"deadlineflows",
	"genericguard",
	"intervalrecv",
	"inlineflows",
	"tracedworker",
	"finwork",
	"modelstatus",
	"priorityworker",
	"unregistered",
	"optengine",
	"resultworker",
	"eventkinds",
	"driftresult",
	"finsetter",
	"deferresult",
	"cacheworker",
	"statusworker",
	"steppipeline",
	"handedresult",
	"keysplit",
	"typedwrite",
	"readhelperworker",
	"flagdrift",
	"finguard",
	"wraperrors",
	"ownwrap",
	"addhelper",
	"pairlog",
	"listall",
	"absentwait",
	"extcleanup",
	"phaseswitch",
	"deletepredicate",
	"dispatchwait",
	"fieldwrapper",
	"tiedwaits",
	"steprunner",
	"deletewait",
	"stepverdicts",
	"driftidentity",
	"driftunproven",
	"indexread",
	"readdworker",
	"enqueuehelper",
	"phasefinalizer",
	"fluxjitter",
	"fmtfinalizer",
	"finshortcut",
	"closureread",
	"finbranches",
	"finsaves",
	"foundwrite",
	"handedwrite",
	"earlypredicate",
	"handedvalues",
	"statusguard",
	"ssaidle",
	"resultctors",
	"mutatereplace",
	"condentries",
	"finshared",
	"retryclosures",
	"finwaited",
	"illtypedend",
	"accessorfin",
	"finfilter",
	"deferredlocal",
	"specwait",
	"finorigins",
	"splitends",
}

// representative are the fixtures TestWantKeys, TestFixtures and TestAnswers
// check under -short (make test): those the package's other tests read
// (TestStages' among them), the Flux-style one, the Knative one (a library
// family of its own) and the one docs/cases.md names (linedir). Loading a
// fixture costs about three seconds of CPU, so the other fixtures' subtests
// skip under -short and make test-heavy checks every fixture.
var representative = map[string]bool{
	"clientgo-finalizer": true, "clientgo-plain": true, "kubebuilder": true,
	"flux": true, "resultbuilder": true, "ctrlnew": true, "valueflow": true,
	"condhelpers": true, "finproof": true, "depqueue": true, "condflows": true,
	"requeueflows": true, "knative": true, "linedir": true,
	"knative-nofinalizer": true, "knative-enqueueafter": true, "resyncflows": true,
	"knative-legacyfin": true, "optengine": true, "knative-depgen": true,
}

// located is what the tests read of a located fixture: the tree's root
// and its controllers. The loaded tree and its program are not kept, so
// that the test binary holds one fixture's types at a time, not all of
// them (1.3 GB): the stage anchors' file, package and type information,
// which tie the whole program to a controller, are dropped once
// fileless has recorded the stages of the anchors that lacked them.
type located struct {
	root     string
	ctrls    []locate.Controller
	fileless []string
	err      error
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*located{}
)

// locateFixture loads and locates a fixture once per test binary.
func locateFixture(t *testing.T, name string) *located {
	t.Helper()
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if l, ok := cache[name]; ok {
		return l
	}
	l := &located{}
	dir := filepath.Join("..", "..", "testdata", "src", name)
	tree, err := load.Load(context.Background(), dir, nil, nil)
	l.err = err
	if err == nil {
		prog := callgraph.Build(tree.All, tree.Own)
		l.root = tree.Root
		l.ctrls, _, l.err = locate.Locate(context.Background(), tree, prog, cite.New(tree.Fset, tree.Root, tree.All, tree.Own))
	}
	for _, c := range l.ctrls {
		for i := range c.Anchors {
			an := &c.Anchors[i]
			if an.File == nil || an.Pkg == nil {
				l.fileless = append(l.fileless, an.Stage)
			}
			an.Fset, an.File, an.Info, an.Pkg, an.Kind = nil, nil, nil, nil, nil
		}
	}
	cache[name] = l
	return l
}

// scanWants returns every want (or want-none) key of a fixture's Go and
// YAML files, at its file:line relative to root, and of the modules its
// go.mod replaces with a directory outside it (a library module beside
// it under testdata/src, whose sites the rows may cite).
func scanWants(t *testing.T, dir, root string) []wants.Want {
	t.Helper()
	ws, err := wants.Scan(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range replacedOutside(t, dir) {
		more, err := wants.Scan(dep, root)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, more...)
	}
	return ws
}

// replacedOutside are the directories outside dir that its go.mod
// replaces a required module with.
func replacedOutside(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range mf.Replace {
		if r.New.Version != "" {
			continue
		}
		target := filepath.Join(dir, r.New.Path)
		if rel, err := filepath.Rel(dir, target); err == nil && strings.HasPrefix(rel, "..") {
			out = append(out, target)
		}
	}
	return out
}

// wantedControllers are the controllers a fixture's wants name, sorted; nil
// when they name none (the fixture holds one controller).
func wantedControllers(t *testing.T, dir, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, w := range scanWants(t, dir, root) {
		if w.Ctrl != "" {
			seen[w.Ctrl] = true
		}
	}
	return keys(seen)
}

// fixtureControllers checks that a fixture holds the controllers its wants
// name (or one, when they name none) and returns them.
func fixtureControllers(t *testing.T, name string, l *located) []locate.Controller {
	t.Helper()
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	want := wantedControllers(t, filepath.Join("..", "..", "testdata", "src", name), l.root)
	var got []string
	for _, c := range l.ctrls {
		got = append(got, c.Name)
	}
	sort.Strings(got)
	if len(want) == 0 && len(got) != 1 || len(want) > 0 && strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("found controllers %v, want %v (one, when the wants name none)", got, want)
	}
	return l.ctrls
}

// readExpectations reads what a fixture's comments state about the
// controller named ctrl.
func readExpectations(t *testing.T, dir, root, ctrl string) wants.Expectations {
	t.Helper()
	e, err := wants.For(scanWants(t, dir, root), ctrl)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestWantKeys checks that every want of every fixture is read by a test,
// as analysistest reports an unmatched expectation: a misspelled key, a
// qualifier naming no controller of the fixture, or a stage key in a
// fixture whose stages TestStages does not check fails, naming its
// file:line.
func TestWantKeys(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && !representative[name] {
				t.Skip("heavy: make test-heavy runs it")
			}
			l := locateFixture(t, name)
			if l.err != nil {
				t.Fatalf("load: %v", l.err)
			}
			var names []string
			for _, c := range l.ctrls {
				names = append(names, c.Name)
			}
			ws := scanWants(t, filepath.Join("..", "..", "testdata", "src", name), l.root)
			for _, err := range wants.Check(ws, names) {
				t.Error(err)
			}
			if !slices.Contains(stageFixtures, name) {
				for _, w := range ws {
					if wants.IsStage(w.Key) {
						t.Errorf("%s: want %q: TestStages does not check this fixture's stages (add it to stageFixtures)", w.At, w.Key)
					}
				}
			}
		})
	}
}

// TestFixtures checks that each fixture's controllers have exactly the
// primary sites its comments want, and none where they say none.
func TestFixtures(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && !representative[name] {
				t.Skip("heavy: make test-heavy runs it")
			}
			l := locateFixture(t, name)
			for _, c := range fixtureControllers(t, name, l) {
				checkRows(t, c, readExpectations(t, filepath.Join("..", "..", "testdata", "src", name), l.root, c.Name))
			}
		})
	}
}

// checkRows checks one controller's rows against the wants.
func checkRows(t *testing.T, c locate.Controller, want wants.Expectations) {
	t.Helper()
	if len(want.CondDecl) > 0 || len(want.CondSet) > 0 {
		want.Primary[locate.RowConditionTypes] = "(condition types)"
	}
	for _, id := range locate.Rows {
		row, ok := c.Rows[id]
		if !ok {
			t.Errorf("%s: %s: row missing from the output", c.Name, id)
			continue
		}
		p, hasPrimary := row.Primary()
		switch {
		case want.None[id]:
			if hasPrimary || row.None == "" {
				t.Errorf("%s: %s: got %s:%d, want none with a reason", c.Name, id, p.File, p.Line)
			}
		case id == locate.RowConditionTypes:
			checkConditions(t, row, want)
		case want.Primary[id] == "":
			t.Errorf("%s: %s: the fixture states no expectation (add a want or want-none comment)", c.Name, id)
		case !hasPrimary:
			t.Errorf("%s: %s: got none (%s), want %s", c.Name, id, row.None, want.Primary[id])
		case cited(row) != want.Primary[id]:
			t.Errorf("%s: %s: got %s (%s:%d: %s), want %s", c.Name, id, cited(row), p.File, p.Line, p.Text, want.Primary[id])
		}
		if hasPrimary && row.None != "" {
			t.Errorf("%s: %s: has both a primary site and a none reason", c.Name, id)
		}
		if !hasPrimary && row.None == "" {
			t.Errorf("%s: %s: none without a reason", c.Name, id)
		}
	}
}

// cited is the file:line a row is wanted at (see locate.Row.Cited).
func cited(r locate.Row) string {
	at, _ := r.Cited()
	return at
}

func checkConditions(t *testing.T, row locate.Row, want wants.Expectations) {
	t.Helper()
	got := map[string]locate.Site{}
	for _, s := range row.Sites {
		got[s.Name] = s
	}
	var gotNames, wantNames []string
	for n := range got {
		gotNames = append(gotNames, n)
	}
	for n := range want.CondDecl {
		wantNames = append(wantNames, n)
	}
	sort.Strings(gotNames)
	sort.Strings(wantNames)
	if strings.Join(gotNames, ",") != strings.Join(wantNames, ",") {
		t.Errorf("condition types: got %v, want %v", gotNames, wantNames)
	}
	for name, s := range got {
		decl := fmt.Sprintf("%s:%d", s.File, s.Line)
		// A type declared in a dependency (Flux's meta.ReadyCondition, a
		// module a fixture replaces with a sibling directory) is marked on
		// its set line in the fixture.
		if decl != want.CondDecl[name] && !strings.Contains(s.File, "@") && (s.Set == nil || sameFixture(s.File, s.Set.File)) {
			t.Errorf("condition %s: declared at %s, want %s", name, decl, want.CondDecl[name])
		}
		if s.Set == nil {
			t.Errorf("condition %s: no set site", name)
			continue
		}
		if set := fmt.Sprintf("%s:%d", s.Set.File, s.Set.Line); set != want.CondSet[name] {
			t.Errorf("condition %s: set at %s (%s), want %s", name, set, s.Set.Text, want.CondSet[name])
		}
	}
}

// TestAnswers checks the answers beyond the table against each fixture's
// comments: every "trace:STEP" and "drift:STEP" line is a step of the
// interval trace or the drift answer, the writes made on every succeeding
// pass are exactly the "write-always" lines, and those flagged as a hot-loop
// risk exactly the "hot-loop" lines.
func TestAnswers(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && !representative[name] {
				t.Skip("heavy: make test-heavy runs it")
			}
			l := locateFixture(t, name)
			for _, c := range fixtureControllers(t, name, l) {
				checkAnswers(t, c, readExpectations(t, filepath.Join("..", "..", "testdata", "src", name), l.root, c.Name))
			}
		})
	}
}

// checkAnswers checks one controller's answers beyond the table against the
// wants.
func checkAnswers(t *testing.T, c locate.Controller, want wants.Expectations) {
	t.Helper()
	steps := map[string]bool{}
	for _, s := range c.IntervalTrace {
		steps[fmt.Sprintf("trace:%s@%s:%d", s.Step, s.File, s.Line)] = true
	}
	for _, s := range c.Drift {
		steps[fmt.Sprintf("drift:%s@%s:%d", s.Step, s.File, s.Line)] = true
	}
	sameSites(t, c.Name+": writes on every pass", c.Writes, func(w locate.Write) bool { return w.Always }, want.Answers["write-always"])
	sameSites(t, c.Name+": hot-loop risks", c.Writes, func(w locate.Write) bool { return strings.Contains(w.Note, "hot-loop risk") }, want.Answers["hot-loop"])
	checkPartial(t, c, want.Answers["partial"])
	if ws := want.Answers["write-unsettled"]; len(ws) > 0 {
		sameSites(t, c.Name+": writes not settled", c.Writes, func(w locate.Write) bool { return strings.Contains(w.Note, "not settled") }, ws)
	}
	for key, ats := range want.Answers {
		if key == "write-always" || key == "write-unsettled" || key == "hot-loop" || key == "partial" {
			continue
		}
		for _, at := range ats {
			if !steps[key+"@"+at] {
				t.Errorf("%s: %s: no such step at %s; got %v", c.Name, key, at, keys(steps))
			}
		}
	}
	// A comparison cited in the fixture's own code is a wanted one: the
	// decoys (a test of the primary's own state, a precondition) are not.
	for _, s := range c.Drift {
		at := fmt.Sprintf("%s:%d", s.File, s.Line)
		if s.Step == locate.StepCompare && !strings.Contains(s.File, "@") && !slices.Contains(want.Answers["drift:compare"], at) {
			t.Errorf("%s: drift: a comparison at %s (%s) the fixture does not want", c.Name, at, s.Text)
		}
	}
	if want.None["interval-trace"] && len(c.IntervalTrace) > 0 {
		t.Errorf("%s: interval trace: got %d steps, want none", c.Name, len(c.IntervalTrace))
	}
	if want.None["drift"] && len(c.Drift) > 0 {
		t.Errorf("%s: drift: got %v, want none", c.Name, c.Drift)
	}
	if !want.None["interval-trace"] && !hasPrefix(want.Answers, "trace:") {
		t.Errorf("%s: the fixture states no interval trace (add trace: wants or want-none \"interval-trace\")", c.Name)
	}
	if !want.None["drift"] && !hasPrefix(want.Answers, "drift:") {
		t.Errorf("%s: the fixture states no drift (add drift: wants or want-none \"drift\")", c.Name)
	}
}

// checkPartial checks that the sites marked partial (a row's site, or its
// condition's set site, and the writes) stand exactly at the wanted lines.
func checkPartial(t *testing.T, c locate.Controller, want []string) {
	t.Helper()
	got := map[string]bool{}
	for _, r := range c.Rows {
		for _, s := range r.Sites {
			switch {
			case s.Partial && s.Set != nil:
				got[fmt.Sprintf("%s:%d", s.Set.File, s.Set.Line)] = true
			case s.Partial:
				got[fmt.Sprintf("%s:%d", s.File, s.Line)] = true
			}
		}
	}
	for _, w := range c.Writes {
		if w.Partial {
			got[fmt.Sprintf("%s:%d", w.File, w.Line)] = true
		}
	}
	wanted := map[string]bool{}
	for _, at := range want {
		wanted[at] = true
	}
	if g, w := strings.Join(keys(got), " "), strings.Join(keys(wanted), " "); g != w {
		t.Errorf("%s: partial sites: got %v, want %v", c.Name, g, w)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func hasPrefix(m map[string][]string, prefix string) bool {
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// TestCreateOrUpdateDrift: a create-or-update helper's own comparison of
// the mutated live object with what it read is cited in the library at
// the version the fixture requires, with the write it makes when they
// differ, for the helper called through the root package's alias too.
func TestCreateOrUpdateDrift(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	c := controllerNamed(t, "applyflows", "ExposeReconciler")
	const lib = "sigs.k8s.io/controller-runtime@v0.24.1/pkg/controller/controllerutil/controllerutil.go"
	got := map[string]bool{}
	for _, s := range c.Drift {
		if strings.HasPrefix(s.Step, "library-") {
			got[fmt.Sprintf("%s %s:%d %s", s.Step, s.File, s.Line, s.Func)] = true
		}
	}
	for _, want := range []string{
		"library-compare " + lib + ":345 controllerutil.CreateOrUpdate", "library-apply " + lib + ":349 controllerutil.CreateOrUpdate",
		"library-compare " + lib + ":448 controllerutil.CreateOrPatch", "library-apply " + lib + ":450 controllerutil.CreateOrPatch",
	} {
		if !got[want] {
			t.Errorf("no step %s; got %v", want, keys(got))
		}
	}
}

// TestRegisteredReads: an object reconciler that the library's adapter
// makes a reconciler of has its re-read cited in the library, at the
// version the fixture requires; a controller whose watches name another
// type than the one its reconcile reads by the key says so.
func TestRegisteredReads(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	l := locateFixture(t, "regflows")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	got := map[string]locate.Controller{}
	for _, c := range l.ctrls {
		got[c.Name] = c
	}
	p, _ := got["VolumeLabeller"].Rows[locate.RowReread].Primary()
	if at, want := fmt.Sprintf("%s:%d", p.File, p.Line), "sigs.k8s.io/controller-runtime@v0.24.1/pkg/reconcile/reconcile.go:165"; at != want {
		t.Errorf("VolumeLabeller: reread at %s, want the library's Get at %s", at, want)
	}
	p, _ = got["ClaimReconciler"].Rows[locate.RowReread].Primary()
	if !strings.Contains(p.Note, "watches Pod, not the PersistentVolumeClaim") {
		t.Errorf("ClaimReconciler: reread note %q, want it to say the registration watches Pod", p.Note)
	}
}

// TestDeadlineTrace: the time left to a deadline (deadline.Sub(now), the
// deadline a time plus a TTL of the spec) is traced through the receiver
// of the value methods that compute it, to the spec field: the Claim's in
// the fixture's API, the Job's TTL in k8s.io/api, which no want can mark.
// The clock the time now is asked of (an interface) is no operand: the
// trace reaches no field of the controller.
func TestDeadlineTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	l := locateFixture(t, "deadlineflows")
	want := map[string]string{
		"ClaimReconciler": "json path spec.holdSeconds",
		"Controller":      "json path spec.ttlSecondsAfterFinished",
	}
	for _, c := range fixtureControllers(t, "deadlineflows", l) {
		if want[c.Name] == "" {
			continue // HoldReconciler: no settled success requeue, no trace
		}
		found := false
		for _, s := range c.IntervalTrace {
			switch {
			case s.Step == locate.StepSpecField && s.Note == want[c.Name]:
				found = true
			case s.Step == locate.StepControllerField:
				t.Errorf("%s: the trace reaches a field of the controller at %s:%d (%s): the clock is no operand of the deadline", c.Name, s.File, s.Line, s.Text)
			}
		}
		if !found {
			t.Errorf("%s: no spec-field step noted %q; got %v", c.Name, want[c.Name], c.IntervalTrace)
		}
	}
}

// TestKindUnknown: a worker that dispatches commands carrying objects of
// two kinds has no kind, and the re-read of a queue of events is not
// settled; the rows about the primary's own operations are none only as a
// proof for every kind (nothing on its path names a finalizer or a
// condition), saying so.
func TestKindUnknown(t *testing.T) {
	l := locateFixture(t, "protoqueue")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "Mirror" {
			continue
		}
		if c.Kind != "" {
			t.Errorf("kind %q, want none: the commands carry Secrets and ConfigMaps", c.Kind)
		}
		if r := c.Rows[locate.RowReread]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "kind is not known") {
			t.Errorf("reread: %q, want not settled, saying the kind is not known", r.None)
		}
		for _, id := range []string{locate.RowFinalizerConst, locate.RowConditionTypes} {
			if r := c.Rows[id]; r.None == "" || strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "whatever the kind") {
				t.Errorf("%s: %q, want none for every kind, saying the kind is not known", id, r.None)
			}
		}
		return
	}
	t.Fatal("no Mirror")
}

// TestMissedRegistration: a registration naming its kind, whose
// reconciler is not followed, beside one that is, is a controller of that
// kind whose every row and answer is not settled, naming the
// registration.
func TestMissedRegistration(t *testing.T) {
	l := locateFixture(t, "missedreg")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Kind != "Secret" {
			continue
		}
		for id, r := range c.Rows {
			if _, ok := r.Primary(); ok || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "main.go:48") {
				t.Errorf("%s: %q, want not settled, naming the registration at main.go:48", id, r.None)
			}
		}
		if !strings.Contains(c.Unsettled, "main.go:48") {
			t.Errorf("answers: unsettled %q, want not settled, naming the registration at main.go:48", c.Unsettled)
		}
		return
	}
	t.Fatalf("no Secret controller among %d", len(l.ctrls))
}

// TestLibraryRegistration: a controller a library registers inside a
// function the tree hands its manager is a controller of the kind its For
// names, every row of which is not settled, naming the tree's call and
// the library's registration, rather than one left out.
func TestLibraryRegistration(t *testing.T) {
	l := locateFixture(t, "libwrites")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Kind != "Namespace" {
			continue
		}
		for id, r := range c.Rows {
			if _, ok := r.Primary(); ok || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "setup.go:14") || !strings.Contains(r.None, "gate/gate.go:26") {
				t.Errorf("%s: %q, want not settled, naming the call at setup.go:14 and the registration at gate/gate.go:26", id, r.None)
			}
		}
		return
	}
	t.Fatalf("no Namespace controller among %d", len(l.ctrls))
}

// TestReflectiveAndAgreement: a condition set by a function that finds the
// status's Conditions by reflection leaves the condition row not settled;
// a finalizer whose constant is not settled, removed with no deletion
// branch, leaves the add and cleanup rows not settled, never none.
func TestReflectiveAndAgreement(t *testing.T) {
	l := locateFixture(t, "reflectcond")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	want := map[string][]string{
		"WidgetReconciler":  {locate.RowConditionTypes},
		"ReleaseReconciler": {locate.RowFinalizerAdd, locate.RowFinalizerCleanup},
	}
	for _, c := range l.ctrls {
		for _, id := range want[c.Name] {
			if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") {
				t.Errorf("%s: %s: %q, want not settled", c.Name, id, r.None)
			}
		}
		delete(want, c.Name)
	}
	if len(want) > 0 {
		t.Errorf("controllers not found: %v", want)
	}
}

// TestGenericWrapper: a generic reconciler made by a generic constructor,
// one instance per kind, is a controller per kind; its rows beyond the
// entry and the re-read are not settled (the instances share the
// wrapper's syntax), never the other instance's answer.
func TestGenericWrapper(t *testing.T) {
	l := locateFixture(t, "genericwrap")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	kinds := map[string]bool{}
	for _, c := range l.ctrls {
		kinds[c.Kind] = true
		for _, id := range []string{locate.RowRequeueSuccess, locate.RowFinalizerRemove} {
			if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "instance of a generic function") {
				t.Errorf("%s: %s: %q, want not settled, naming the generic instance", c.Name, id, r.None)
			}
		}
	}
	if !kinds["ConfigMap"] || !kinds["Secret"] {
		t.Errorf("kinds %v, want ConfigMap and Secret", kinds)
	}
}

// TestMetadataKind: a controller with no For that watches a type's
// metadata, queueing the object's own key, and reads it as
// PartialObjectMetadata has the watched type as its kind.
func TestMetadataKind(t *testing.T) {
	l := locateFixture(t, "metawatch")
	if l.err != nil || len(l.ctrls) != 1 {
		t.Fatalf("load: %v (%d controllers)", l.err, len(l.ctrls))
	}
	if k := l.ctrls[0].Kind; k != "Node" {
		t.Errorf("kind %q, want Node", k)
	}
}

// TestUnsettled: when the result is built by a helper ctrlcmp does not
// follow, the success requeue is not settled, and the answer says so and
// why instead of claiming the controller is event-driven.
func TestUnsettled(t *testing.T) {
	l := locateFixture(t, "resultbuilder")
	if l.err != nil || len(l.ctrls) != 1 {
		t.Fatalf("load: %v (%d controllers)", l.err, len(l.ctrls))
	}
	reason := l.ctrls[0].Rows[locate.RowRequeueSuccess].None
	if !strings.HasPrefix(reason, "not settled") || !strings.Contains(reason, "r.Builder.Build") {
		t.Errorf("requeue-success: %q, want it not settled, naming the builder", reason)
	}
}

// TestSignalRequeue: a timed requeue whose interval an error picked out
// by errors.As carries (a wait or a retry, made where the error is made)
// leaves the success requeue not settled, never "event-driven only".
func TestSignalRequeue(t *testing.T) {
	l := locateFixture(t, "steppipeline")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "SignalReconciler" {
			continue
		}
		reason := c.Rows[locate.RowRequeueSuccess].None
		if !strings.HasPrefix(reason, "not settled") || !strings.Contains(reason, "signal.go:66") {
			t.Errorf("requeue-success: %q, want it not settled, naming the return at signal.go:66", reason)
		}
		return
	}
	t.Fatal("no SignalReconciler")
}

// TestAlternativeCleanups: a deletion branch that runs one of two
// functions of the tree on the object, as a test decides, leaves the
// cleanup not settled, naming both and the test.
func TestAlternativeCleanups(t *testing.T) {
	l := locateFixture(t, "finwork")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "EitherReconciler" {
			continue
		}
		reason := c.Rows[locate.RowFinalizerCleanup].None
		for _, want := range []string{"not settled", "release", "deleteConfigMaps", "either.go:33"} {
			if !strings.Contains(reason, want) {
				t.Errorf("finalizer-cleanup: %q, want it to say %q", reason, want)
			}
		}
		return
	}
	t.Fatal("no EitherReconciler")
}

// TestOtherObjectsFinalizers: a finalizer list changed through a
// metav1.Object asserted from a copy of another object (a Secret archived
// by the ServiceAccount's reconciler) is not the primary's, though the
// program hands the copying helper a ServiceAccount elsewhere.
func TestOtherObjectsFinalizers(t *testing.T) {
	l := locateFixture(t, "finwork")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "ArchiveReconciler" {
			continue
		}
		for _, id := range []string{locate.RowFinalizerConst, locate.RowFinalizerAdd, locate.RowFinalizerRemove} {
			for _, s := range c.Rows[id].Sites {
				if strings.Contains(s.Text, "decoy") || strings.Contains(s.Text, "archived") {
					t.Errorf("%s cites the archived copy's finalizer at %s:%d", id, s.File, s.Line)
				}
			}
		}
		return
	}
	t.Fatal("no ArchiveReconciler")
}

// TestUnfollowedSync: a shared worker handed a sync function ctrlcmp
// cannot follow (picked from a package variable) is a controller whose
// every row is not settled, naming the call that hands it and where the
// trail ends, its stages too, never one with a kind guessed from another
// function.
func TestUnfollowedSync(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	l := locateFixture(t, "splitsync")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "services.Controller" {
			continue
		}
		if c.Kind != "" {
			t.Errorf("kind %q, want none told", c.Kind)
		}
		const at = "pkg/controllers/services/controller.go:58"
		for _, id := range locate.Rows {
			if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, at) || !strings.Contains(r.None, "package variable") {
				t.Errorf("%s: %q, want not settled at %s, naming the package variable", id, r.None, at)
			}
		}
		for _, id := range locate.StageIDs {
			if r := c.Stages[id]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, at) {
				t.Errorf("%s: %q, want not settled at %s", id, r.None, at)
			}
		}
		return
	}
	t.Fatal("no services.Controller")
}

// TestSyncPeriod: an event-driven controller-runtime reconciler's none
// reason cites the cache resync period the tree sets.
func TestSyncPeriod(t *testing.T) {
	l := locateFixture(t, "ctrlnew")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	i := slices.IndexFunc(l.ctrls, func(c locate.Controller) bool { return c.Name == "SecretReconciler" })
	if i < 0 {
		t.Fatalf("no SecretReconciler among %d controllers", len(l.ctrls))
	}
	c := l.ctrls[i]
	if c.Kind != "Secret" {
		t.Errorf("kind %q, want Secret (from source.Kind)", c.Kind)
	}
	reason := c.Rows[locate.RowRequeueSuccess].None
	if !strings.HasPrefix(reason, "event-driven only") || !strings.Contains(reason, "controller/secret.go:") {
		t.Errorf("requeue-success: %q, want event-driven only, citing the SyncPeriod", reason)
	}
}

// sameSites checks that the writes keep selects stand exactly at the
// wanted file:line places.
func sameSites(t *testing.T, what string, writes []locate.Write, keep func(locate.Write) bool, want []string) {
	t.Helper()
	var got []string
	for _, w := range writes {
		if keep(w) {
			got = append(got, fmt.Sprintf("%s:%d", w.File, w.Line))
		}
	}
	want = append([]string(nil), want...)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// TestGeneratedBodies: the reconcile calls a function of a generated file
// whose body adds the finalizer and updates the object; a generated
// function's body is read like any other (only generated data is dropped),
// so its addition is a supporting site of finalizer-add.
func TestGeneratedBodies(t *testing.T) {
	l := locateFixture(t, "kubebuilder")
	if l.err != nil || len(l.ctrls) != 1 {
		t.Fatalf("load: %v (%d controllers)", l.err, len(l.ctrls))
	}
	for _, s := range l.ctrls[0].Rows[locate.RowFinalizerAdd].Sites {
		if strings.HasPrefix(filepath.Base(s.File), "zz_generated.") && !s.Primary {
			return
		}
	}
	t.Errorf("finalizer-add: %v, want the generated body's addition as a supporting site", l.ctrls[0].Rows[locate.RowFinalizerAdd].Sites)
}

// TestSeveralFinalizers: a primary object with two finalizers added by a
// helper cites both constants and the helper's calls, and a child's own
// finalizer (the Mirror's PersistentVolumeClaim) is cited by no finalizer
// row.
func TestSeveralFinalizers(t *testing.T) {
	l := locateFixture(t, "valueflow")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	var mirror *locate.Controller
	for i := range l.ctrls {
		if l.ctrls[i].Name == "MirrorReconciler" {
			mirror = &l.ctrls[i]
		}
	}
	if mirror == nil {
		t.Fatal("no MirrorReconciler found")
	}
	var names []string
	for _, s := range mirror.Rows[locate.RowFinalizerConst].Sites {
		names = append(names, s.Name)
	}
	if want := "mirror.valueflow.example.com/cleanup mirror.valueflow.example.com/export"; strings.Join(names, " ") != want {
		t.Errorf("finalizer-const: %v, want %s", names, want)
	}
	var helperCalls int
	for _, s := range mirror.Rows[locate.RowFinalizerAdd].Sites {
		if !s.Primary && strings.Contains(s.Text, "addFinalizer(obj, valuev1.") {
			helperCalls++
		}
	}
	if helperCalls != 2 {
		t.Errorf("finalizer-add: %d calls of the helper as supporting sites, want 2", helperCalls)
	}
	for _, id := range []string{locate.RowFinalizerConst, locate.RowFinalizerAdd, locate.RowFinalizerCleanup, locate.RowFinalizerRemove} {
		for _, s := range mirror.Rows[id].Sites {
			if strings.Contains(s.Text, "volumeFinalizer") || strings.Contains(s.Text, "pvc") {
				t.Errorf("%s cites the child's finalizer at %s:%d (%s)", id, s.File, s.Line, s.Text)
			}
		}
	}
}

// TestConditionTrailEnds: a condition set on the primary object with a
// type computed at run time is not a type, and the row says where the
// trail ends; conditions copied from a child keep the child's types and
// are neither types nor an end of the trail.
func TestConditionTrailEnds(t *testing.T) {
	l := locateFixture(t, "condhelpers")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "WidgetReconciler" {
			continue
		}
		p, ok := c.Rows[locate.RowConditionTypes].Primary()
		if !ok {
			t.Fatalf("condition-types: no primary site")
		}
		if !strings.Contains(p.Note, "not settled") || !strings.Contains(p.Note, "controller/widget.go:63 ") {
			t.Errorf("condition-types note %q: want the computed type at widget.go:63 named as not settled", p.Note)
		}
		if strings.Contains(p.Note, "widget.go:60 ") {
			t.Errorf("condition-types note %q names the child's copied conditions", p.Note)
		}
		return
	}
	t.Fatal("no WidgetReconciler")
}

// TestTypedWriteConditions checks that a generated-style typed client's
// write handed the object (UpdateStatus, a method of client-go's generic
// client, fixture typedwrite) is read as a write that sets no condition,
// not as a call whose unread body may set more types.
func TestTypedWriteConditions(t *testing.T) {
	p, ok := controllerNamed(t, "typedwrite", "Controller").Rows[locate.RowConditionTypes].Primary()
	if !ok {
		t.Fatal("condition-types: no primary site")
	}
	if strings.Contains(p.Note, "not settled") {
		t.Errorf("condition-types note %q: the typed client's UpdateStatus sets no condition", p.Note)
	}
}

// TestAppliedConditionNotSettled checks that a condition built as an
// apply configuration (fixture condhelpers, WidgetApplier), which the
// condition flow does not follow to the object, leaves the condition
// types not settled, naming where it is built, instead of a false none.
func TestAppliedConditionNotSettled(t *testing.T) {
	row := controllerNamed(t, "condhelpers", "WidgetApplier").Rows[locate.RowConditionTypes]
	if !strings.HasPrefix(row.None, "not settled") || !strings.Contains(row.None, "controller/applier.go:33 ") {
		t.Errorf("condition-types %q: want not settled, naming the apply configuration at applier.go:33", row.None)
	}
}

// TestDispatchedWaitNotSettled checks that a success whose result one of
// several functions behind an interface method makes (fixture
// dispatchwait: a status helper handing back what the options it is
// handed ask for) leaves the requeue on success not settled, naming the
// call, instead of the wait after creating a child, or an interval.
func TestDispatchedWaitNotSettled(t *testing.T) {
	row := controllerNamed(t, "dispatchwait", "GaugeReconciler").Rows[locate.RowRequeueSuccess]
	if !strings.HasPrefix(row.None, "not settled") || !strings.Contains(row.None, "o.result()") {
		t.Errorf("requeue-success %q: want not settled, naming o.result()", row.None)
	}
}

// TestFieldWrapperRequeuesNotSettled checks that the functions one
// registered wrapper runs from a field (fixture fieldwrapper: each binary
// configures its own) are a controller each, and that where the wrapper
// asks for a requeue of its own around the call (Gate), their requeue rows
// are not settled, naming the wrapper's call (Wrapper hands back what its
// call made: its functions' rows are the fixture's wants). Functions that
// read one kind are strategies of the wrapper's one controller
// (Strategist), whose requeue found in one of them is not settled.
func TestFieldWrapperRequeuesNotSettled(t *testing.T) {
	if r := controllerNamed(t, "fieldwrapper", "Strategist").Rows[locate.RowRequeueError]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "wrapper/strategy.go:34") {
		t.Errorf("Strategist: requeue-error %q: want not settled, naming the strategy's call at strategy.go:34", r.None)
	}
	for _, name := range []string{"SecretGate", "ConfigGate"} {
		c := controllerNamed(t, "fieldwrapper", name)
		for _, id := range []string{locate.RowRequeueError, locate.RowRequeueSuccess} {
			if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "wrapper/gate.go:33") {
				t.Errorf("%s: %s %q: want not settled, naming the gate's call at gate.go:33", name, id, r.None)
			}
		}
	}
}

// TestHeldConditionNotSettled checks that a condition appended to a
// holder's copy of a status the primary embeds (fixture condhelpers,
// HolderReconciler), which a callback copies back and the condition flow
// does not tie to the object, leaves the condition types not settled,
// naming the store, instead of a false none.
func TestHeldConditionNotSettled(t *testing.T) {
	row := controllerNamed(t, "condhelpers", "HolderReconciler").Rows[locate.RowConditionTypes]
	if !strings.HasPrefix(row.None, "not settled") || !strings.Contains(row.None, "controller/holder.go:24 ") {
		t.Errorf("condition-types %q: want not settled, naming the store at holder.go:24", row.None)
	}
}

// TestHandedObserveDeletion checks that a generated reconciler's requeue
// on error is not said to be none when the hand-written type implements a
// method the generated Reconcile calls besides ReconcileKind
// (ObserveDeletion, fixture knative-handed) and whose error it returns.
func TestHandedObserveDeletion(t *testing.T) {
	l := locateFixture(t, "knative-handed")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "mirror.Reconciler" {
			continue
		}
		r := c.Rows[locate.RowRequeueError]
		if _, ok := r.Primary(); ok || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "ObserveDeletion") {
			t.Errorf("requeue-error: %q, want not settled, naming ObserveDeletion", r.None)
		}
		return
	}
	t.Errorf("controller mirror.Reconciler not found")
}

// TestIntervalReceiver: a duration computed by a library method on a
// value (next.Sub(now)) is traced through the method's receiver as well as
// its arguments: the Pulse's reaches its spec field, and the Delay's, whose
// receiver is its creation plus a constant, reaches no spec field though
// its spec has one of the same type. The Tick's receiver is a schedule (an
// interface) a library parsed from its spec field: it is traced there.
func TestIntervalReceiver(t *testing.T) {
	reaches := func(c locate.Controller) bool {
		for _, s := range c.IntervalTrace {
			if s.Step == locate.StepSpecField {
				return true
			}
		}
		return false
	}
	if c := controllerNamed(t, "intervalrecv", "PulseReconciler"); !reaches(c) {
		t.Errorf("PulseReconciler: the interval trace reaches no spec field: %v", c.IntervalTrace)
	}
	if c := controllerNamed(t, "intervalrecv", "DelayReconciler"); reaches(c) {
		t.Errorf("DelayReconciler: the interval trace reaches a spec field: %v", c.IntervalTrace)
	}
	if c := controllerNamed(t, "intervalrecv", "TickReconciler"); !reaches(c) {
		t.Errorf("TickReconciler: the interval trace reaches no spec field: %v", c.IntervalTrace)
	}
}

// TestLegacyFinalizerSettled: a generated reconciler's hand-written type
// without FinalizeKind that removes an older version's finalizer from the
// live object (fixture knative-legacyfin) adds none, settled: the typed
// client's Update that writes the object back changes no finalizer, even
// when the call graph resolves its interface to no implementation.
func TestLegacyFinalizerSettled(t *testing.T) {
	l := locateFixture(t, "knative-legacyfin")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		for _, id := range []string{locate.RowFinalizerAdd, locate.RowFinalizerCleanup} {
			r := c.Rows[id]
			if _, ok := r.Primary(); ok || r.None == "" || strings.HasPrefix(r.None, "not settled") {
				t.Errorf("%s: %s: %q, want a settled none", c.Name, id, r.None)
			}
		}
	}
	if len(l.ctrls) == 0 {
		t.Errorf("no controller found")
	}
}

// TestModelConditions: a worker handed a Pod and the in-memory model of its
// gates patches, by the Pod's name, the status it builds from the model
// (fixture modelstatus). The gates the entry stores into the model are its
// condition types; the model may hold others from before the entry ran,
// and one set from a variable a flag changes is not followed: the row says
// so. A status literal with an empty list sets nothing. The patch is a write, not a read by the key, and the item is the
// object: the re-read is a settled none.
func TestModelConditions(t *testing.T) {
	l := locateFixture(t, "modelstatus")
	if l.err != nil || len(l.ctrls) != 1 {
		t.Fatalf("load: %v (%d controllers)", l.err, len(l.ctrls))
	}
	c := l.ctrls[0]
	p, ok := c.Rows[locate.RowConditionTypes].Primary()
	if !ok {
		t.Fatalf("condition-types: no primary site (%s)", c.Rows[locate.RowConditionTypes].None)
	}
	for _, want := range []string{"not settled beyond these", "main.go:112 ", "the entry's parameter m"} {
		if !strings.Contains(p.Note, want) {
			t.Errorf("condition-types note %q: want it to say %q", p.Note, want)
		}
	}
	if strings.Contains(p.Note, "main.go:114 ") {
		t.Errorf("condition-types note %q names the empty status literal at main.go:114, which sets no condition", p.Note)
	}
	if r := c.Rows[locate.RowReread]; strings.HasPrefix(r.None, "not settled") {
		t.Errorf("reread: %q, want a settled none (the items carry the object)", r.None)
	}
}

// TestDependencyKindConditions: a kind declared in a dependency has its
// Mark… methods there: their bodies are read, so the types they mark
// (WithinLimit, and the set's happy type Succeeded) are in the row, cited
// at the hand-written call, and the row is whole.
func TestDependencyKindConditions(t *testing.T) {
	l := locateFixture(t, "knative-depgen")
	if l.err != nil || len(l.ctrls) != 1 {
		t.Fatalf("load: %v (%d controllers)", l.err, len(l.ctrls))
	}
	row := l.ctrls[0].Rows[locate.RowConditionTypes]
	p, ok := row.Primary()
	if !ok {
		t.Fatalf("condition-types: no primary site: %s", row.None)
	}
	if strings.Contains(p.Note, "not settled") {
		t.Errorf("condition-types: note %q, want the kind's methods read whole", p.Note)
	}
	for _, s := range row.Sites {
		if s.Name == "WithinLimit" && !strings.HasSuffix(s.File, "knative-gaugelib/pkg/apis/gauges/v1/gauge_lifecycle.go") {
			t.Errorf("condition-types: WithinLimit declared at %s, want the dependency's gauge_lifecycle.go", s.File)
		}
	}
}

// sameFixture reports whether two paths relative to the repository lie
// in one fixture's directory (testdata/src/NAME).
func sameFixture(a, b string) bool {
	top := func(p string) string {
		parts := strings.SplitN(p, "/", 4)
		return strings.Join(parts[:min(3, len(parts))], "/")
	}
	return top(a) == top(b)
}

// TestReportedAndHelperWait: conditions a pass's state collects and
// merges into a status assigned whole leave the condition row not
// settled, never none; a return under a test of an error and an interval
// a helper made together leaves the success requeue not settled, never
// "event-driven only"; a final return of a result built where ctrlcmp does
// not follow leaves the error requeue not settled, never an earlier
// failure return stated as the main work's.
func TestReportedAndHelperWait(t *testing.T) {
	l := locateFixture(t, "reportwait")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	want := map[string]struct{ row, names string }{
		"ReportReconciler":    {locate.RowConditionTypes, "assigned whole at testdata/src/reportwait/controller/report.go:51"},
		"GateReconciler":      {locate.RowRequeueSuccess, "gate.go:33"},
		"AggregateReconciler": {locate.RowRequeueError, "aggregate.go:60"},
	}
	for _, c := range l.ctrls {
		w, ok := want[c.Name]
		if !ok {
			continue
		}
		if r := c.Rows[w.row]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, w.names) {
			t.Errorf("%s: %s: %q, want not settled, naming %s", c.Name, w.row, r.None, w.names)
		}
		delete(want, c.Name)
	}
	if len(want) > 0 {
		t.Errorf("controllers not found: %v", want)
	}
}

// TestUnanalysedEntryAnswers: a controller whose entry's body does not
// type-check (fixture illtypedsync) has its answers under the table not
// settled, naming the entry, never "writes nothing" or "none found".
func TestUnanalysedEntryAnswers(t *testing.T) {
	l := locateFixture(t, "illtypedsync")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if !strings.Contains(c.Unsettled, "syncHandler, the entry, could not be analysed") {
			t.Errorf("%s: unsettled %q, want the entry named as not analysed", c.Name, c.Unsettled)
		}
	}
	if len(l.ctrls) == 0 {
		t.Fatal("no controller found")
	}
}

// TestAddressHandedResult: a result whose address the reconcile hands a
// helper (shortenWait(&result, d)) holds what the helper stores, which
// the body's own stores do not show: the success requeue is not settled,
// naming the helper, never the interval of the body's one direct store.
func TestAddressHandedResult(t *testing.T) {
	l := locateFixture(t, "requeueflows")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "KappaReconciler" {
			continue
		}
		for _, id := range []string{locate.RowRequeueSuccess, locate.RowRequeueError} {
			if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "shortenWait") {
				t.Errorf("%s: %q, want not settled, naming shortenWait", id, r.None)
			}
		}
		return
	}
	t.Fatalf("no KappaReconciler among %d", len(l.ctrls))
}
