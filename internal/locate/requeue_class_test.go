package locate_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestRequeueClasses checks the class of the requeue rows' primary sites,
// which the want comments do not state: a timed requeue under a condition
// that tests something else than the object waits on it (a dependency
// wait), one under a test of the object alone, or none, or one whose
// duration a Spec field of the object sets, is the interval.
func TestRequeueClasses(t *testing.T) {
	cases := []struct {
		fixture, ctrl, row, class string
	}{
		{"queuewait", "SecretWaiter", locate.RowRequeueSuccess, locate.ClassDependencyWait},
		{"queuewait", "AccountTicker", locate.RowRequeueSuccess, locate.ClassSuccessInterval},
		{"timerqueue", "AccountMarker", locate.RowRequeueSuccess, locate.ClassDependencyWait},
		{"timerqueue", "ConfigMapRefresher", locate.RowRequeueSuccess, locate.ClassSuccessInterval},
		{"requeuehelpers", "StateReconciler", locate.RowRequeueSuccess, locate.ClassSuccessInterval},
		{"requeuehelpers", "BuilderReconciler", locate.RowRequeueSuccess, locate.ClassSuccessInterval},
		{"requeuehelpers", "BuilderReconciler", locate.RowRequeueError, locate.ClassErrorBackoff},
		{"requeuehelpers", "PhaseReconciler", locate.RowRequeueSuccess, locate.ClassSuccessInterval},
		{"requeuehelpers", "PhaseReconciler", locate.RowRequeueError, locate.ClassErrorBackoff},
		{"resultworker", "ConfigMapChecker", locate.RowRequeueSuccess, locate.ClassDependencyWait},
		{"resultworker", "SecretRefresher", locate.RowRequeueSuccess, locate.ClassSuccessInterval},
		{"resultworker", "SecretRefresher", locate.RowRequeueError, locate.ClassErrorBackoff},
		{"knative-shapes", "rollout.Reconciler", locate.RowRequeueSuccess, locate.ClassDependencyWait},
		{"specwait", "MirrorReconciler", locate.RowRequeueSuccess, locate.ClassSuccessInterval},
		{"reportedresult", "StampReconciler", locate.RowRequeueSuccess, locate.ClassDependencyWait},
		{"loopwait", "FanoutReconciler", locate.RowRequeueSuccess, locate.ClassDependencyWait},
		{"resultdelegate", "PublishReconciler", locate.RowRequeueError, locate.ClassRetryAfterFailure},
	}
	for _, c := range cases {
		t.Run(c.fixture+"/"+c.ctrl+"/"+c.row, func(t *testing.T) {
			l := locateFixture(t, c.fixture)
			if l.err != nil {
				t.Fatalf("load: %v", l.err)
			}
			for _, ctrl := range l.ctrls {
				if ctrl.Name != c.ctrl {
					continue
				}
				p, ok := ctrl.Rows[c.row].Primary()
				if !ok {
					t.Fatalf("no primary site: %s", ctrl.Rows[c.row].None)
				}
				if p.Class != c.class {
					t.Errorf("%s:%d: class %s, want %s", p.File, p.Line, p.Class, c.class)
				}
				return
			}
			t.Fatalf("no controller %s", c.ctrl)
		})
	}
}

// TestRetryAfterFailureIsNoSuccess: a worker's delayed re-add under a test
// of the sync's failure (a stale cache) is a retry after a failure, listed
// with the requeues on error; it is not the interval, and the steady
// state stays event-driven.
func TestRetryAfterFailureIsNoSuccess(t *testing.T) {
	l := locateFixture(t, "queuewait")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, ctrl := range l.ctrls {
		if ctrl.Name != "EndpointsRetrier" {
			continue
		}
		found := false
		for _, s := range ctrl.Rows[locate.RowRequeueError].Sites {
			if strings.HasPrefix(s.Text, "c.queue.AddAfter(key, staleWait)") && s.Class == locate.ClassRetryAfterFailure {
				found = true
			}
		}
		if !found {
			t.Errorf("requeue-error: %+v, want the AddAfter of staleWait in retrier.go as retry-after-failure", ctrl.Rows[locate.RowRequeueError].Sites)
		}
		return
	}
	t.Fatal("no controller EndpointsRetrier")
}

// TestDelayedAddsNeitherAfter: two delayed re-adds of the key, each an
// interval, in the cases of one switch: neither is the steady state's, so
// the success requeue is not settled and names both; the first is not
// picked for being first.
func TestDelayedAddsNeitherAfter(t *testing.T) {
	c := controllerNamed(t, "queuewait", "ServicePacer")
	r := c.Rows[locate.RowRequeueSuccess]
	if _, ok := r.Primary(); ok || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "pacer.go:95") || !strings.Contains(r.None, "pacer.go:97") {
		t.Errorf("requeue-success: %q (sites %+v), want not settled, naming pacer.go:95 and pacer.go:97", r.None, r.Sites)
	}
}

// TestRequeueClassesAlternativeAdds: a worker whose failure takes one of
// two AddRateLimited calls, as a test of a setting decides, leaves the
// requeue on error not settled, naming both.
func TestRequeueClassesAlternativeAdds(t *testing.T) {
	l := locateFixture(t, "retrythreshold")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	if len(l.ctrls) != 1 {
		t.Fatalf("got %d controllers, want 1", len(l.ctrls))
	}
	reason := l.ctrls[0].Rows[locate.RowRequeueError].None
	for _, want := range []string{"not settled", "controller.go:147", "controller.go:150"} {
		if !strings.Contains(reason, want) {
			t.Errorf("requeue-error: %q, want it to say %q", reason, want)
		}
	}
}

// TestTiedWaitsNotSettled checks that, with no steady-state requeue, waits
// that rank alike leave the requeue on success not settled, citing each
// with none primary, whether they stand one after another on the success
// path (fixture tiedwaits, MirrorReconciler) or in the cases of one switch
// (PowerReconciler): the order of the source does not say which is the
// success's.
func TestTiedWaitsNotSettled(t *testing.T) {
	cases := []struct {
		ctrl, why string
		lines     []int
	}{
		{"MirrorReconciler", "a pass stops at the first whose test holds", []int{54, 68}},
		{"PowerReconciler", "cases of one switch", []int{49, 56}},
	}
	for _, tc := range cases {
		r := controllerNamed(t, "tiedwaits", tc.ctrl).Rows[locate.RowRequeueSuccess]
		if _, ok := r.Primary(); ok || !strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, tc.why) {
			t.Errorf("%s: requeue-success %q: want not settled, saying %q", tc.ctrl, r.None, tc.why)
		}
		var lines []int
		for _, s := range r.Sites {
			if s.Class == locate.ClassDependencyWait {
				lines = append(lines, s.Line)
			}
		}
		if !slices.Equal(lines, tc.lines) {
			t.Errorf("%s: requeue-success cites the waits at lines %v, want %v", tc.ctrl, lines, tc.lines)
		}
	}
}

// TestImmediateRequeueIsNoSuccess checks that an immediate requeue with a
// nil error on a path that is not a failure's (fixture tiedwaits,
// PublishReconciler) is no timed requeue: the requeue on success is none,
// its reason naming the immediate one.
func TestImmediateRequeueIsNoSuccess(t *testing.T) {
	r := controllerNamed(t, "tiedwaits", "PublishReconciler").Rows[locate.RowRequeueSuccess]
	if _, ok := r.Primary(); ok || strings.HasPrefix(r.None, "not settled") || !strings.Contains(r.None, "publish.go:41 asks for an immediate requeue") {
		t.Errorf("PublishReconciler: requeue-success %q: want none, naming the immediate requeue at publish.go:41", r.None)
	}
}
