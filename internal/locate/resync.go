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
// types (a child's Deployments) is left out, its period not the one that
// brings the primary object back.
func (a *analysis) resyncs(kind *types.Named) []Site {
	var primary, unknown []Site
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		a.allCalls(fd, func(c call) {
			isFactory := c.known && c.fact.Role == RoleInformerFactory
			// Generated informer factories live in the tree (read for their
			// declarations only): their shape is the knowledge.
			if !isFactory && c.fn != nil && strings.HasPrefix(c.fn.Name(), generatedFactoryName) && a.decls[c.fn.Origin()] != nil && len(c.expr.Args) >= 2 {
				isFactory = true
			}
			if !isFactory || len(c.expr.Args) < 2 {
				return
			}
			// A period passed through from a parameter is a factory's own
			// plumbing (generated constructors calling each other), not a choice.
			if id, ok := ast.Unparen(c.expr.Args[1]).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && isParam(fd, info, v) {
					return
				}
			}
			s := a.site(c.expr.Lparen)
			arg := c.expr.Args[1]
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
