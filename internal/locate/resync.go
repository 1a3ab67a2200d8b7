package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// resyncs cites the informer factories the tree creates whose informers
// may watch the primary type, with their resync period as written: those
// an informer of the primary type is taken from first, then those whose
// informers are not known; a factory whose informers all watch other
// types (a child's Deployments), or whose type gives no informer of the
// primary type (the Kubernetes types' factory, for a custom resource), is
// left out, its period not the one that brings the primary object back.
func (a *analysis) resyncs(kind *types.Named) []Site {
	var primary, unknown []Site
	kinds := map[string][]*types.Named{}
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		a.allCalls(fd, func(c call) {
			period := a.factoryPeriod(info, c)
			if period < 0 {
				return
			}
			// A period passed through from a parameter is a factory's own
			// plumbing (generated constructors calling each other), not a choice.
			if id, ok := ast.Unparen(c.expr.Args[period]).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && isParam(fd, info, v) {
					return
				}
			}
			if kind != nil {
				t := info.TypeOf(c.expr)
				key := types.TypeString(t, nil)
				if _, done := kinds[key]; !done {
					kinds[key] = factoryKinds(t)
				}
				if ks := kinds[key]; len(ks) > 0 && !slices.ContainsFunc(ks, func(n *types.Named) bool { return types.Identical(n, kind) }) {
					return
				}
			}
			s := a.site(c.expr.Lparen)
			arg := c.expr.Args[period]
			s.Note = a.tree.Fset.PositionFor(arg.Pos(), false).String()
			if src := a.exprText(arg); src != "" {
				s.Note = src
			}
			switch watched := factoryWatches(info, fd.Body, c.expr); {
			case kind != nil && slices.ContainsFunc(watched, func(n *types.Named) bool { return types.Identical(n, kind) }):
				primary = append(primary, s)
			case kind == nil || len(watched) == 0:
				unknown = append(unknown, s)
			}
		})
	}
	return append(primary, unknown...)
}

// factoryPeriod returns the index of the resync period argument of a call
// that creates an informer factory, or -1: a factory from the knowledge
// table, or one generated into the tree, known by its name or by its
// shape (a function of the tree taking a duration and returning a type
// whose methods lead to informers).
func (a *analysis) factoryPeriod(info *types.Info, c call) int {
	switch {
	case c.known && c.fact.Role == RoleInformerFactory:
		if c.fact.Arg >= 0 && c.fact.Arg < len(c.expr.Args) {
			return c.fact.Arg
		}
		return -1
	case c.fn == nil || a.decls[c.fn.Origin()] == nil:
		return -1
	case strings.HasPrefix(c.fn.Name(), generatedFactoryName) && len(c.expr.Args) >= 2:
		return 1
	}
	sig, ok := c.fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() != 1 {
		return -1
	}
	period := -1
	for i := 0; i < sig.Params().Len() && i < len(c.expr.Args); i++ {
		if isDuration(sig.Params().At(i).Type()) {
			period = i
			break
		}
	}
	if period < 0 || len(factoryKinds(sig.Results().At(0).Type())) == 0 {
		return -1
	}
	return period
}

// isDuration reports whether t is time.Duration.
func isDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// factoryKinds lists the object types an informer factory's type gives
// informers of: the types listed by the informers its methods without
// parameters lead to (factory.Group().Version().Kind()), three calls deep.
func factoryKinds(t types.Type) []*types.Named {
	var out []*types.Named
	seen := map[string]bool{}
	var walk func(types.Type, int)
	walk = func(t types.Type, depth int) {
		if n := listedType(t); n != nil {
			out = append(out, n)
			return
		}
		key := types.TypeString(t, nil)
		if depth == 3 || seen[key] {
			return
		}
		seen[key] = true
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			fn, ok := ms.At(i).Obj().(*types.Func)
			if !ok || !fn.Exported() {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() == 0 && sig.Results().Len() == 1 {
				walk(sig.Results().At(0).Type(), depth+1)
			}
		}
	}
	if t != nil {
		walk(t, 0)
	}
	return out
}

// factoryWatches lists the types watched by the informers body takes from
// the factory a call creates: the calls on the variables it is assigned
// to whose result is an informer (listedType).
func factoryWatches(info *types.Info, body *ast.BlockStmt, factory *ast.CallExpr) []*types.Named {
	vars := map[*types.Var]bool{}
	assignedFrom(info, body, factory, true, vars)
	var out []*types.Named
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok || !(ast.Unparen(sel.X) == factory || mentions(info, sel.X, vars)) {
			return true
		}
		if t := listedType(info.TypeOf(c)); t != nil {
			out = append(out, t)
		}
		return true
	})
	return out
}

// syncPeriods cites where the tree sets a controller-runtime cache's resync
// period, with the value as written.
func (a *analysis) syncPeriods() []Site {
	var out []Site
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
				if _, ok := resyncFields[fieldKey(v, info.TypeOf(lit))]; !ok {
					return
				}
				s := a.site(kv.Pos())
				value := kv.Value
				if u, ok := value.(*ast.UnaryExpr); ok && u.Op == token.AND {
					value = u.X // SyncPeriod: &period
				}
				if fn := a.bySyntax[fd]; fn != nil {
					value = a.lastValue(fn, info, value)
				}
				s.Note = a.exprText(value)
				out = append(out, s)
			})
			return true
		})
	}
	return out
}

// isParam reports whether v is a parameter of fd.
func isParam(fd *ast.FuncDecl, info *types.Info, v *types.Var) bool {
	for _, id := range paramIdents(fd.Type) {
		if info.Defs[id] == v {
			return true
		}
	}
	return false
}
