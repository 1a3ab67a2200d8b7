package locate

import (
	"fmt"
	"go/ast"
	"go/types"
	"path"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// timerFind is what the timers the reconcile path arms do with the key: the
// calls that set the delay of one whose callback re-adds the key to the
// workqueue, each classed as a workqueue's AddAfter would be; the timers
// and the adds their callbacks come to, which support them; and the timers
// whose callback could not be followed.
type timerFind struct {
	arms      []delayedAdd
	support   []Site
	unsettled []string
}

// delayedAdd is one delayed re-add of the key: its site, classed, and the
// requeue whose duration the interval trace follows (nil when the call
// that sets the delay is not read).
type delayedAdd struct {
	site  Site
	timed *timedRequeue
}

// maxTimerClimb bounds how many callers a timer's delay is followed up
// through, to the call that computes it.
const maxTimerClimb = 6

// timerRequeues finds the delayed re-enqueues of the key made through a
// timer on the reconcile path (fns and what reach holds): a call of the
// knowledge table's timers whose callback (the function handed to it, or
// the func values its caller runs once the timer's channel fires) comes,
// followed by the flow engine to where it is made, to the workqueue's add.
// The site is the call that sets the delay: the timer's delay followed up
// through the callers whose parameter it is.
func (a *analysis) timerRequeues(fns []*ssa.Function, reach *callgraph.Reach, kind *types.Named) timerFind {
	var out timerFind
	worker := map[*ssa.Function]bool{}
	for _, fn := range fns {
		worker[fn] = true
	}
	on := map[*ssa.Function]bool{}
	var all []*ssa.Function
	for _, fn := range append(append([]*ssa.Function(nil), fns...), reach.Funcs()...) {
		if !on[fn] {
			on[fn] = true
			all = append(all, fn)
		}
	}
	for _, fn := range all {
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				ci, ok := ins.(ssa.CallInstruction)
				if !ok {
					continue
				}
				obj := calleeObj(ci.Common())
				if obj == nil {
					continue
				}
				f, known := knowledge[funcKey(obj)]
				if !known || f.Role != RoleTimer {
					continue
				}
				a.timerCall(fn, ci, obj, f, on, worker, kind, &out)
			}
		}
	}
	return out
}

// timerCall settles one timer call: what its callback comes to, and where
// its delay is set. A delay set on the sync path is classed, as a
// workqueue's AddAfter there, by the conditions around the call that sets
// it (a wait on something else than the object, a retry after a failure);
// the worker's own (worker) is the interval.
func (a *analysis) timerCall(fn *ssa.Function, ci ssa.CallInstruction, obj *types.Func, f Fact, on, worker map[*ssa.Function]bool, kind *types.Named, out *timerFind) {
	c := ci.Common()
	args := c.Args
	if sc := c.StaticCallee(); sc != nil && sc.Signature.Recv() != nil {
		args = args[1:] // a concrete clock's method: the receiver first
	}
	fl := a.newFuncFlow()
	var o funcOutcome
	if f.Callback >= 0 {
		if f.Callback >= len(args) {
			return
		}
		o = fl.value(args[f.Callback], 0)
	} else {
		// The caller waits on the channel, then runs what follows: the
		// func values it (and the closures it starts) call.
		o = fl.funcValueCalls(fn)
	}
	timer := a.site(ci.Pos())
	if len(o.queue) == 0 {
		if len(o.ends) > 0 && f.Callback >= 0 {
			end := a.site(o.ends[0].at)
			out.unsettled = append(out.unsettled, fmt.Sprintf("a timer at %s:%d calls %s (%s:%d), not followed", timer.File, timer.Line, o.ends[0].what, end.File, end.Line))
		} else if len(o.ends) > 0 {
			end := a.site(o.ends[0].at)

			out.unsettled = append(out.unsettled, fmt.Sprintf("a timer at %s:%d is followed by a call of %s (%s:%d), not followed", timer.File, timer.Line, o.ends[0].what, end.File, end.Line))
		}
		return
	}
	if f.Arg < 0 || f.Arg >= len(args) {
		return
	}
	arms := a.climbDelay(fn, ci, args[f.Arg], f.Arg, on, 0)
	// A field of a type shared by several controllers holds each one's
	// add: cite the one made in the package that arms the timer, if any.
	queue := a.site(o.queue[0])
	for _, q := range o.queue {
		if s := a.site(q); path.Dir(s.File) == path.Dir(a.site(arms[0].ci.Pos()).File) {
			queue = s
			break
		}
	}
	for _, arm := range arms {
		s := a.site(arm.ci.Pos())
		s.Class = ClassSuccessInterval
		s.Note = fmt.Sprintf("sets the delay of a timer (%s:%d) whose callback adds the key to the workqueue again (%s:%d)", timer.File, timer.Line, queue.File, queue.Line)
		e := a.callExprAt(arm.fn, arm.ci)
		if info := a.infoAt(posOf(arm.fn)); e != nil && info != nil && !worker[arm.fn] {
			switch a.requeueGuard(info, e, kind, arm.fn) {
			case guardError:
				s.Class = ClassRetryAfterFailure
			case guardOther:
				s.Class = ClassDependencyWait
				s.Note = joinNotes(s.Note, "a wait on something else than the object, with no failure; the final success return does not requeue: the steady state is event-driven")
			}
		}
		d := delayedAdd{site: s}
		if e != nil && arm.arg < len(e.Args) {
			d.timed = &timedRequeue{in: arm.fn, at: e, duration: e.Args[arm.arg]}
		}
		out.arms = append(out.arms, d)
	}
	timer.Note = "the timer"
	queue.Note = "the workqueue's add its callback comes to"
	out.support = append(out.support, timer, queue)
}

// armCall is a call that sets a timer's delay: the function it is in, the
// call, and the index of the delay among its arguments (receiver excluded).
type armCall struct {
	fn  *ssa.Function
	ci  ssa.CallInstruction
	arg int
}

// climbDelay follows a timer's delay up through the callers whose
// parameter it is (on the reconcile path), to the calls that compute it.
func (a *analysis) climbDelay(fn *ssa.Function, ci ssa.CallInstruction, delay ssa.Value, arg int, on map[*ssa.Function]bool, depth int) []armCall {
	here := []armCall{{fn: fn, ci: ci, arg: arg}}
	p, ok := delay.(*ssa.Parameter)
	if !ok || depth >= maxTimerClimb {
		return here
	}
	i := -1
	for j, q := range fn.Params {
		if q == p {
			i = j
		}
	}
	recv := 0
	if fn.Signature.Recv() != nil {
		recv = 1
	}
	var out []armCall
	for _, e := range a.prog.CallsInto(fn) {
		c := e.Site.Common()
		args := callArgsSSA(c)
		if recv == 1 && !c.IsInvoke() && c.StaticCallee() != fn {
			// A call of a bound method value: the receiver was bound
			// where the value was made, the arguments are the rest.
			args = append([]ssa.Value{nil}, args...)
		}
		if !on[e.Caller.Func] || i < 0 || i >= len(args) || i-recv < 0 {
			continue
		}
		out = append(out, a.climbDelay(e.Caller.Func, e.Site, args[i], i-recv, on, depth+1)...)
	}
	if len(out) == 0 {
		return here
	}
	return out
}

// callExprAt is the syntax of a call of an own function, or nil.
func (a *analysis) callExprAt(fn *ssa.Function, ci ssa.CallInstruction) *ast.CallExpr {
	for _, c := range a.callsIn(fn) {
		if c.expr.Lparen == ci.Pos() {
			return c.expr
		}
	}
	return nil
}

// funcValueCalls says what the func values an own function calls (in its
// body and the closures it makes) come to: what a caller that waits on a
// timer's channel runs when it fires.
func (fl *funcFlow) funcValueCalls(fn *ssa.Function) funcOutcome {
	var o funcOutcome
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			ci, ok := ins.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := ci.Common()
			if _, builtin := c.Value.(*ssa.Builtin); builtin || c.IsInvoke() || c.StaticCallee() != nil {
				continue
			}
			o.add(fl.value(c.Value, 0))
		}
	}
	for _, anon := range fn.AnonFuncs {
		o.add(fl.funcValueCalls(anon))
	}
	return o
}
