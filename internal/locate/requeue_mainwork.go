package locate

import (
	"fmt"
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

// alternativeAdds says, when the work's AddRateLimited chosen as the
// failure's (the first of rateLimited) has another failure's in its
// function that stands in the other branch of an if or another case of a switch (if
// threshold == 0 { AddRateLimited } else if retries < threshold {
// AddRateLimited }), that which one a failure takes is not settled: what
// the test reads decides, and neither comes after the other. "" otherwise.
func (a *analysis) alternativeAdds(rateLimited []Site, at []rateLimitedCall) string {
	if len(rateLimited) == 0 {
		return ""
	}
	first := rateLimited[0]
	var p token.Pos
	for _, c := range at {
		if s := a.site(c.expr.Lparen); s.File == first.File && s.Line == first.Line {
			p = c.expr.Pos()
		}
	}
	failed := map[int]bool{}
	for _, s := range rateLimited {
		if s.File == first.File && s.Class == ClassErrorBackoff {
			failed[s.Line] = true
		}
	}
	for _, c := range at {
		rel, _ := a.stmtRelation(p, c.expr.Pos())
		s := a.site(c.expr.Lparen)
		if rel != relBranches && rel != relCases || s.File != first.File || !failed[s.Line] {
			continue // (the sync's own ask for the key back is not a failure's)
		}
		return fmt.Sprintf("not settled: the worker's AddRateLimited at %s:%d and %s:%d stand in branches of one if (or cases of one switch): which one a failed sync takes is decided by what the test reads, and neither comes after the other", first.File, first.Line, s.File, s.Line)
	}
	return ""
}
