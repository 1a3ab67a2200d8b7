package locate

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// queueCall is a call of a workqueue's AddRateLimited or Forget (forget).
type queueCall struct {
	in     *ssa.Function
	pos    token.Pos
	forget bool
}

// mainWorkFailure picks, among the AddRateLimited calls of a work that
// requeues the key itself (a handler the worker hands the object to), the
// one of its main work's failure, as the last failure return before the
// success return is: in the first function holding a Forget after one,
// the last before its last Forget (its success path's end). A call in a
// closure of that function stands where the closure is made, one in a
// helper it calls where it calls it (a branch moved out of it). It returns
// the index of that call among the AddRateLimited calls, or -1.
func (a *analysis) mainWorkFailure(calls []queueCall) int {
	seen := map[*ssa.Function]bool{}
	for _, f := range calls {
		if !f.forget || seen[f.in] {
			continue
		}
		top := f.in
		seen[top] = true
		var lastForget token.Pos
		for _, c := range calls {
			if c.forget && c.in == top {
				lastForget = max(lastForget, c.pos)
			}
		}
		best, bestAt := -1, token.NoPos
		i := -1
		for _, c := range calls {
			if c.forget {
				continue
			}
			i++
			if at, ok := a.anchorIn(top, c.in, c.pos); ok && at < lastForget && at > bestAt {
				best, bestAt = i, at
			}
		}
		if best >= 0 {
			return best
		}
	}
	return -1
}

// anchorIn is where a call at pos in fn stands in top: there, when fn is
// top; where the closure of top holding it is made; where top calls fn
// (its last such call). ok is false when fn is none of these.
func (a *analysis) anchorIn(top, fn *ssa.Function, pos token.Pos) (token.Pos, bool) {
	if fn == top {
		return pos, true
	}
	for f := fn; f.Parent() != nil; f = f.Parent() {
		if f.Parent() == top {
			return posOf(f), true
		}
	}
	var at token.Pos
	for _, e := range a.prog.CallsInto(fn) {
		if e.Caller.Func == top && e.Site != nil && e.Site.Pos() > at {
			at = e.Site.Pos()
		}
	}
	return at, at.IsValid()
}
