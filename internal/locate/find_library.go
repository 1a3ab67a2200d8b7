package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// Controllers a library registers inside a function the tree calls with
// its manager (crossplane-runtime's customresourcesgate.Setup(mgr, o)):
// the function's body is read on demand (bodies.go), with those of the
// library's functions it hands the manager on to, for a builder's For. Each
// is a controller of the kind For names whose every row is not settled,
// cited at the tree's call: ctrlcmp does not follow a library's
// reconciler, and says so rather than leave the controller out.

// libRegistration is a For a library's function makes: where, and the
// kind it names.
type libRegistration struct {
	pos  token.Pos
	kind *types.Named
}

// maxLibraryHops bounds the library functions followed down from the
// tree's call, each handed the manager on.
const maxLibraryHops = 2

// libraryRegistrations are the registrations made inside the library's
// functions a declaration of the tree's calls with a manager.
func (a *analysis) libraryRegistrations(fd *ast.FuncDecl) []miss {
	var out []miss
	a.allCalls(fd, func(c call) {
		if c.known || c.fn == nil || len(c.own) > 0 || a.fileOwn(c.fn.Pos()) || !takesParamOf(c.fn, managerTypes) {
			return
		}
		for _, r := range a.libRegistered(c.fn.Origin(), 0) {
			out = append(out, miss{at: a.site(c.expr.Lparen), kind: r.kind,
				why: fmt.Sprintf("the library's %s registers it inside, at %s, with a reconciler of the library's, which ctrlcmp does not follow", funcKey(c.fn), fileLine(a.site(r.pos)))})
		}
	})
	return out
}

// libRegistered are the Fors a library's function makes, in its body or
// in the library functions it hands the manager on to.
func (a *analysis) libRegistered(fn *types.Func, hops int) []libRegistration {
	b := a.depBody(fn)
	if b == nil || hops > maxLibraryHops {
		return nil
	}
	var out []libRegistration
	a.bodyCalls(b, func(c call) {
		switch {
		case c.known && c.fact.Role == RoleRegisterFor:
			if k, ok := deref(b.info.TypeOf(c.arg(c.fact.Arg))).(*types.Named); ok {
				out = append(out, libRegistration{pos: c.expr.Lparen, kind: k})
			}
		case !c.known && c.fn != nil && c.fn.Origin() != fn && takesParamOf(c.fn, managerTypes):
			out = append(out, a.libRegistered(c.fn.Origin(), hops+1)...)
		}
	})
	return out
}
