package locate_test

import (
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// controllerNamed returns a fixture's controller of that name.
func controllerNamed(t *testing.T, fixture, name string) locate.Controller {
	t.Helper()
	l := locateFixture(t, fixture)
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("%s: no controller %s", fixture, name)
	return locate.Controller{}
}

// TestFinalizerNoneIsSearched: a controller with no finalizer says so after
// a search whose scope it states, and its reason cites no owner reference
// made by another controller of the tree (the guard's
// SetControllerReference is not reachable from the annotator).
func TestFinalizerNoneIsSearched(t *testing.T) {
	c := controllerNamed(t, "finproof", "AnnotateReconciler")
	for _, id := range []string{locate.RowFinalizerConst, locate.RowFinalizerAdd, locate.RowFinalizerCleanup, locate.RowFinalizerRemove} {
		r := c.Rows[id]
		if r.Searched == "" {
			t.Errorf("%s: none (%q) without what was searched", id, r.None)
		}
		if strings.Contains(r.None, "owner reference") {
			t.Errorf("%s: %q cites another controller's owner reference", id, r.None)
		}
	}
	g := controllerNamed(t, "finproof", "GuardReconciler")
	cleanup := g.Rows[locate.RowFinalizerCleanup]
	for _, s := range cleanup.Sites {
		if strings.Contains(s.Text, "func hasFinalizer") {
			t.Errorf("finalizer-cleanup cites the predicate at %s:%d", s.File, s.Line)
		}
	}
}

// TestFinalizerComputedList: a finalizer list computed by a helper that
// tests DeletionTimestamp and written whole, with the deletion's work done
// inline after the write (finproof's TallyReconciler), leaves every
// finalizer row not settled: no certain none for the cleanup, no guessed
// removal at the whole write. A flag set on deletion before a removal that
// runs anyway (MigrateReconciler) stays a settled none.
func TestFinalizerComputedList(t *testing.T) {
	c := controllerNamed(t, "finproof", "TallyReconciler")
	for _, id := range []string{locate.RowFinalizerConst, locate.RowFinalizerAdd, locate.RowFinalizerCleanup, locate.RowFinalizerRemove} {
		if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") {
			t.Errorf("%s: %q, want not settled", id, r.None)
		}
	}
	// A deletion branch that only sets a flag, before a removal that runs
	// either way, is a settled none.
	m := controllerNamed(t, "finproof", "MigrateReconciler").Rows[locate.RowFinalizerCleanup]
	if _, has := m.Primary(); has || m.None == "" || strings.HasPrefix(m.None, "not settled") {
		t.Errorf("MigrateReconciler finalizer-cleanup: %q, want a settled none", m.None)
	}
}

// TestConditionsHandedUnread: the Panel's conditions handed to a method of
// an interface no type of the tree implements (condtargets' plugin
// Marker) may get types the flow cannot read: the row names that call as
// not settled beyond the types it lists.
func TestConditionsHandedUnread(t *testing.T) {
	c := controllerNamed(t, "condtargets", "PanelReconciler")
	p, ok := c.Rows[locate.RowConditionTypes].Primary()
	if !ok || !strings.Contains(p.Note, "controller/panel.go:86 ") || !strings.Contains(p.Note, "handed to Mark") {
		t.Errorf("condition-types: %+v, want a note naming the plugin's Mark at panel.go:86 as not settled", p)
	}
}

// TestFinalizerPatchUnread: a finalizer added by a typed clientset's JSON
// patch of the primary, built by option functions the search does not read
// (finproof's StampReconciler), leaves the finalizer rows not settled,
// naming the patch, instead of "no finalizer".
func TestFinalizerPatchUnread(t *testing.T) {
	c := controllerNamed(t, "finproof", "StampReconciler")
	for _, id := range []string{locate.RowFinalizerConst, locate.RowFinalizerAdd} {
		if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "controller/stamp.go:61 ") {
			t.Errorf("%s: %q, want not settled, naming the patch at stamp.go:61", id, r.None)
		}
	}
}

// TestResyncOfThePrimary: an event-driven client-go controller cites the
// resync period of the factory its primary type's informer comes from, not
// that of a factory made first for another type; and a dependency handed
// the queue that only forgets the key leaves it event-driven, after a
// search that says so.
func TestResyncOfThePrimary(t *testing.T) {
	c := controllerNamed(t, "depqueue", "SecretStamper")
	r := c.Rows[locate.RowRequeueSuccess]
	if !strings.HasPrefix(r.None, "event-driven only") || !strings.Contains(r.None, "45*time.Second (testdata/src/depqueue/main.go:") {
		t.Errorf("requeue-success: %q, want event-driven only, citing the Secrets' factory's 45*time.Second", r.None)
	}
	if r.Searched == "" {
		t.Errorf("requeue-success: none without what was searched")
	}
	s, ok := controllerNamed(t, "depqueue", "ConfigMapRefresher").Rows[locate.RowRequeueSuccess].Primary()
	if !ok || !strings.Contains(s.Note, "queuelib/requeue/requeue.go:") {
		t.Errorf("requeue-success: %+v, want the call of the helper, citing the AddAfter in its body", s)
	}
}

// TestPriorityQueueOptionsUnread: a priority queue's AddWithOpts handed
// options that are not a literal may put the key back rate-limited or
// after a delay: both requeue rows are not settled, naming the add, never
// "only logged" or event-driven.
func TestPriorityQueueOptionsUnread(t *testing.T) {
	c := controllerNamed(t, "priorityworker", "NodeChecker")
	for _, id := range []string{locate.RowRequeueError, locate.RowRequeueSuccess} {
		if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") && !strings.HasPrefix(r.None, "see ") {
			t.Errorf("%s: %q, want not settled", id, r.None)
		}
	}
	if r := c.Rows[locate.RowRequeueError]; !strings.Contains(r.None, "pkg/nodes/nodes.go:71 ") {
		t.Errorf("requeue-error: %q, want the AddWithOpts at nodes.go:71 named", r.None)
	}
}

// TestCleanupByOrderOnly: a deletion branch whose first call is handed
// neither the object nor the work, reaches no removal and deletes nothing
// (a line about the key) leaves the cleanup not settled, naming the call.
func TestCleanupByOrderOnly(t *testing.T) {
	c := controllerNamed(t, "finproof", "NoteReconciler")
	if r := c.Rows[locate.RowFinalizerCleanup]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "controller/note.go:46)") {
		t.Errorf("finalizer-cleanup: %q, want not settled, naming noteGoing at note.go:46", r.None)
	}
}

// TestUnguardedCleanupNotSettled: with no finalizer, a deletion branch whose
// one call is handed only the key and changes none of the controller's
// state (a notice posted to a hook) leaves the cleanup not settled, never
// a none that says no branch needs one.
func TestUnguardedCleanupNotSettled(t *testing.T) {
	c := controllerNamed(t, "finnoguard", "NotifyReconciler")
	if r := c.Rows[locate.RowFinalizerCleanup]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "controller/notify.go:38)") {
		t.Errorf("finalizer-cleanup: %q, want not settled, naming notify at notify.go:38", r.None)
	}
}

// TestWriteInLoopNotSettled: a write in the body of a range loop over a
// value the code does not prove non-empty (a Service's ports) is not a
// write of every pass for certain, nor certainly not: its timing is not
// settled, and the note names the loop.
func TestWriteInLoopNotSettled(t *testing.T) {
	c := controllerNamed(t, "finproof", "PortsReconciler")
	for _, w := range c.Writes {
		if w.Line != 30 {
			continue
		}
		if w.Always || !strings.Contains(w.Note, "not settled") || !strings.Contains(w.Note, "controller/ports.go:28") {
			t.Errorf("write at ports.go:30: always %v, note %q; want not always, not settled, naming the loop at ports.go:28", w.Always, w.Note)
		}
		return
	}
	t.Fatalf("no write at ports.go:30 in %+v", c.Writes)
}

// A write made on every pass of an object whose annotation and spec pass
// the tests on its way is not settled, and names the nearest such test.
func TestWriteUnderObjectTestNotSettled(t *testing.T) {
	c := controllerNamed(t, "finproof", "ExposeReconciler")
	for _, w := range c.Writes {
		if w.Line != 46 {
			continue
		}
		if w.Always || !strings.Contains(w.Note, "not settled") || !strings.Contains(w.Note, "controller/expose.go:42") {
			t.Errorf("write at expose.go:46: always %v, note %q; want not always, not settled, naming the test at expose.go:42", w.Always, w.Note)
		}
		return
	}
	t.Fatalf("no write at expose.go:46 in %+v", c.Writes)
}

// TestCleanupOffTheDeletionPath: a finalizer removed on a path that a
// phase chooses, where the only test of the deletion leaves at once, has
// no cleanup that the deletion tells: the row is not settled and names
// the removal, never "dropped inline".
func TestCleanupOffTheDeletionPath(t *testing.T) {
	c := controllerNamed(t, "phasefinalizer", "ArchiveReconciler")
	r := c.Rows[locate.RowFinalizerCleanup]
	if !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "controller/archive.go:68") || strings.Contains(r.None, "inline") {
		t.Errorf("finalizer-cleanup: %q, want not settled, naming the removal at archive.go:68", r.None)
	}
}

// TestConditionsInTupleStore: conditions merged by a helper that hands back
// a new list and whether it changed, stored in a fresh status value (list,
// _ = merge(…)) that a patch of its own sends for the object (fixture
// statusapply), are a candidate the search cannot tie to the object: the
// row is not settled, never "no condition is set".
func TestConditionsInTupleStore(t *testing.T) {
	c := controllerNamed(t, "statusapply", "GateReconciler")
	if r := c.Rows[locate.RowConditionTypes]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "gate.go:44") {
		t.Errorf("condition-types: %+v, want not settled, naming the store at gate.go:44", r)
	}
}

// TestConditionsInMutateCallback: a condition set, through a call handed
// the list's address, on the status a mutate callback is handed by a
// helper that runs it inside a library's retry (fixture statusapply's
// LockReconciler) is not tied to the object: not settled, never "no
// condition is set".
func TestConditionsInMutateCallback(t *testing.T) {
	c := controllerNamed(t, "statusapply", "LockReconciler")
	if r := c.Rows[locate.RowConditionTypes]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "lock.go:33") {
		t.Errorf("condition-types: %+v, want not settled, naming the set at lock.go:33", r)
	}
}

// TestCleanupRecordedElsewhere: a deletion branch that only drops the
// finalizer, through a helper written for every kind that removes it in a
// retry, beside a deletion branch that records the deletion in the
// status's phase (finlib's PhaseReconciler), leaves the cleanup not
// settled, naming the record: never a none, nor the helper.
func TestCleanupRecordedElsewhere(t *testing.T) {
	c := controllerNamed(t, "finlib", "PhaseReconciler")
	if r := c.Rows[locate.RowFinalizerCleanup]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "controller/phase.go:63") {
		t.Errorf("finalizer-cleanup: %q, want not settled, naming the phase recorded at phase.go:63", r.None)
	}
}

// TestConditionsNoneWithoutList: a status handed to a reflective marker
// that holds no conditions list (reflectcond's GaugeReconciler) gets a
// settled none: the marker can set nothing there. The Widget's, which
// holds one, stays not settled.
func TestConditionsNoneWithoutList(t *testing.T) {
	g := controllerNamed(t, "reflectcond", "GaugeReconciler")
	if r := g.Rows[locate.RowConditionTypes]; r.None == "" || strings.HasPrefix(r.None, "not settled") {
		t.Errorf("Gauge condition-types: %q, want a settled none", r.None)
	}
	w := controllerNamed(t, "reflectcond", "WidgetReconciler")
	if r := w.Rows[locate.RowConditionTypes]; !strings.HasPrefix(r.None, "not settled") {
		t.Errorf("Widget condition-types: %q, want not settled", r.None)
	}
}

// TestConditionsMapHandedUnread: conditions kept by type in a map that is
// handed to a method of an interface no type of the tree implements
// (fixture condhelpers, TallyHookReconciler) may get keys the flow cannot
// read: the row is not settled, naming that call, never the types found
// alone.
func TestConditionsMapHandedUnread(t *testing.T) {
	r := controllerNamed(t, "condhelpers", "TallyHookReconciler").Rows[locate.RowConditionTypes]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "tallyhook.go:39") {
		t.Errorf("condition-types: %+v, want not settled, naming the call at tallyhook.go:39", r)
	}
}

// TestKindWaitNotEventDriven: a failure the code picks out by its kind
// (errors.As in a failure mapper's switch, errors.Is held in a flag under a
// test of the error) and waits on with a nil error may be a wait on a
// dependency as well as a retry: the requeue on success is not settled,
// naming the wait, never "event-driven only", nor a wait on something
// else (BrokerReconciler's pause, brokers.go:54) that ranks no higher.
func TestKindWaitNotEventDriven(t *testing.T) {
	for name, line := range map[string]string{"BrokerReconciler": "brokers.go:32", "QuorumReconciler": "brokers.go:86"} {
		r := controllerNamed(t, "failuremapper", name).Rows[locate.RowRequeueSuccess]
		if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, line) {
			t.Errorf("%s: requeue-success: %+v, want not settled, naming the wait at %s", name, r, line)
		}
	}
}

// TestRereadByOtherKeyNotSettled: with no read by the request's key, a Get
// of the object's own kind by another key (a name from a list that holds
// the request's) leaves the re-read not settled, naming it, never "none".
func TestRereadByOtherKeyNotSettled(t *testing.T) {
	r := controllerNamed(t, "listedread", "QuotaReconciler").Rows[locate.RowReread]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "quota.go:52") {
		t.Errorf("reread: %+v, want not settled, naming the Get at quota.go:52", r)
	}
}

// TestStatusGetterState: a test of the object's status read through a
// getter of its type (obj.GetStatus().ReleasedAt) is a test of its state:
// an interval in one branch and no requeue in the other leave the requeue
// on success not settled, naming the test.
func TestStatusGetterState(t *testing.T) {
	r := controllerNamed(t, "deadlineflows", "HoldReconciler").Rows[locate.RowRequeueSuccess]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "hold_controller.go:26") {
		t.Errorf("requeue-success: %+v, want not settled, naming the test at hold_controller.go:26", r)
	}
}

// TestMergedResultsNotSettled: a success return handing back the soonest of
// the results its steps (run through an interface) asked for leaves the
// requeue on success not settled, naming where the interval is copied,
// never that return as a wait of its own.
func TestMergedResultsNotSettled(t *testing.T) {
	r := controllerNamed(t, "requeueflows", "PiReconciler").Rows[locate.RowRequeueSuccess]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "pi.go:49") {
		t.Errorf("requeue-success: %+v, want not settled, naming the copy at pi.go:49", r)
	}
}

// TestWaitAfterStatusWriteRanksAlike: a wait whose only earlier writes are
// in a branch that returns, or the object's status, comes after no work:
// it ranks as an earlier wait does, and the requeue on success is not
// settled, naming both, never the later one as a wait on what work made.
func TestWaitAfterStatusWriteRanksAlike(t *testing.T) {
	r := controllerNamed(t, "tiedwaits", "TokenReconciler").Rows[locate.RowRequeueSuccess]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "token.go:43") || !strings.Contains(r.None, "token.go:59") {
		t.Errorf("requeue-success: %+v, want not settled, naming the waits at token.go:43 and token.go:59", r)
	}
}

// TestOptionalCleanupsNotSettled: a deletion branch that runs two pieces of
// work, each only where a test of its own holds, leaves the cleanup not
// settled, naming both, never the first in the source.
func TestOptionalCleanupsNotSettled(t *testing.T) {
	r := controllerNamed(t, "finwork", "OptionalReconciler").Rows[locate.RowFinalizerCleanup]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "orphan") || !strings.Contains(r.None, "purge") {
		t.Errorf("finalizer-cleanup: %+v, want not settled, naming orphan and purge", r)
	}
}

// TestDeletionFlagCleanupNotSettled: a deletion branch behind a flag
// assigned twice is found (never "no branch on DeletionTimestamp"); handed
// the object by no call, its first call cannot fail and a later one's
// failure is returned: the cleanup is not settled, naming both, and the
// log line reading the object through an interface is neither.
func TestDeletionFlagCleanupNotSettled(t *testing.T) {
	r := controllerNamed(t, "flagdeletion", "SweepReconciler").Rows[locate.RowFinalizerCleanup]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "r.seen.forget") || !strings.Contains(r.None, "r.purge") || strings.Contains(r.None, "logGone") {
		t.Errorf("finalizer-cleanup: %+v, want not settled, naming r.seen.forget and r.purge", r)
	}
}

// TestRereadThroughFetcherNotSettled: a Get of an object handed on as an
// interface (a fetcher's fetch(ctx, o client.Object)), by a key built from
// a field of the fetcher and the object's name, may read the primary
// object: the re-read is not settled, naming the Get, never none.
func TestRereadThroughFetcherNotSettled(t *testing.T) {
	r := controllerNamed(t, "wrappedkind", "ShelfReconciler").Rows[locate.RowReread]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "shelf.go:28") {
		t.Errorf("reread: %+v, want not settled, naming the Get at shelf.go:28", r)
	}
}

// TestRemovedOnlyFinalizers: a reconcile path that removes two finalizers
// and adds neither cites the one the tree adds off the path (a defaulting
// webhook), with that addition; when the tree adds neither, the constant
// and the removal are not settled, naming both, never the first removed.
func TestRemovedOnlyFinalizers(t *testing.T) {
	badge := controllerNamed(t, "offpathfinalizer", "BadgeReconciler")
	for _, id := range []string{locate.RowFinalizerConst, locate.RowFinalizerRemove} {
		r := badge.Rows[id]
		if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "LegacyFinalizer") || !strings.Contains(r.None, "CurrentFinalizer") {
			t.Errorf("Badge %s: %+v, want not settled, naming both finalizers", id, r)
		}
	}
}

// TestSplitIntervalNotSettled: a result whose interval is stored under a
// test of an error and elsewhere too, handed back at one return, leaves
// both requeue rows not settled, naming both stores, never a false none.
func TestSplitIntervalNotSettled(t *testing.T) {
	score := controllerNamed(t, "driftguards", "ScoreReconciler")
	if r := score.Rows[locate.RowRequeueSuccess]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "ledger.go:") {
		t.Errorf("requeue-success: %+v, want not settled, naming the stores", r)
	}
	if r := score.Rows[locate.RowRequeueError]; !strings.HasPrefix(r.None, "not settled") {
		t.Errorf("requeue-error: %+v, want not settled", r)
	}
}

// TestStateDispatchNotSettled: an entry that hands its pass to one of
// several functions by the object's state, ending in a return of no
// work, leaves the requeue on error not settled, naming them.
func TestStateDispatchNotSettled(t *testing.T) {
	r := controllerNamed(t, "driftguards", "PhaseReconciler").Rows[locate.RowRequeueError]
	if _, has := r.Primary(); has || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "r.start") || !strings.Contains(r.None, "r.finishPhase") {
		t.Errorf("requeue-error: %+v, want not settled, naming both phases' functions", r)
	}
}

// TestUnresolvedStepsNotSettled: steps kept as function values the call
// graph resolves to nothing, handed the object, leave the condition types
// and the finalizer rows not settled, naming the call, never none.
func TestUnresolvedStepsNotSettled(t *testing.T) {
	c := controllerNamed(t, "condhelpers", "WidgetStepper")
	for _, id := range []string{locate.RowConditionTypes, locate.RowFinalizerConst, locate.RowFinalizerAdd} {
		if r := c.Rows[id]; !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "stepper.go:47") {
			t.Errorf("%s: %+v, want not settled, naming the call of step at stepper.go:47", id, r)
		}
	}
}
