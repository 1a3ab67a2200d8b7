package locate

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// queueRequeues answers the requeue rows of a client-go controller from its
// worker: AddRateLimited on failure, AddAfter on success.
func (a *analysis) queueRequeues(f *found, reach *callgraph.Reach) *requeues {
	out := &requeues{}
	var fns []*ssa.Function
	if f.worker != nil {
		fns = append([]*ssa.Function{f.worker}, f.worker.AnonFuncs...)
	}
	var rateLimited, after, forget []Site
	scan := func(fn *ssa.Function) {
		for _, c := range a.callsIn(fn) {
			if !c.known {
				continue
			}
			switch c.fact.Role {
			case RoleQueueAddRateLimited:
				s := a.site(c.expr.Lparen)
				s.Class = ClassErrorBackoff
				rateLimited = append(rateLimited, s)
			case RoleQueueAddAfter:
				s := a.site(c.expr.Lparen)
				s.Class = ClassSuccessInterval
				after = append(after, s)
				if out.success == nil {
					out.success = &timedRequeue{in: fn, at: c.expr, duration: c.arg(c.fact.Arg)}
				}
			case RoleQueueForget:
				forget = append(forget, a.site(c.expr.Lparen))
			}
		}
	}
	for _, fn := range fns {
		scan(fn)
	}
	for _, fn := range reach.Funcs() {
		scan(fn)
	}
	// The sync's own failure returns are what triggers AddRateLimited; a
	// worker that calls none only logs them, and they requeue nothing.
	var syncErrs []Site
	if b := body(f.entry); b != nil && len(rateLimited) > 0 {
		info := a.infoAt(b.Pos())
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) > 0 && !isNil(info, n.Results[len(n.Results)-1]) {
					if t := info.TypeOf(n.Results[len(n.Results)-1]); t != nil && implementsError(t) {
						s := a.site(n.Pos())
						s.Class = ClassErrorBackoff
						s.Note = "the sync fails, so the worker requeues the key rate-limited"
						syncErrs = append(syncErrs, s)
					}
				}
			}
			return true
		})
	}
	errRow := rowOf(append(rateLimited, syncErrs...), "no AddRateLimited in the worker: a failed sync is only logged, so a failed key comes back only with the next event or resync")
	if len(after) > 0 {
		out.onError, out.onSuccess = errRow, rowOf(after, "")
		return out
	}
	reason := "event-driven only: no AddAfter on the success path"
	if len(forget) > 0 {
		reason += fmt.Sprintf("; a successful sync calls Forget (%s:%d)", forget[0].File, forget[0].Line)
	}
	if rs := a.resyncs(); len(rs) > 0 {
		reason += fmt.Sprintf("; informer resync period %s (%s:%d)", rs[0].Note, rs[0].File, rs[0].Line)
	}
	out.onError, out.onSuccess = errRow, none(reason)
	return out
}
