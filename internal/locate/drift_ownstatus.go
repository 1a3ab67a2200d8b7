package locate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// ownStatusCompared is the drift answer's one step when no other candidate
// stands against a "none" but one of the applying writes (applyingWrites)
// writes the primary object, of a kind the tree declares, only when an
// equality helper finds its status different from a value of the same
// type (reflect.DeepEqual(old.Status, obj.Status), Semantic.DeepEqual(used,
// eq.Status.Used), then the status write). ctrlcmp reads the primary's
// status as what the controller reports, not as desired state it
// corrects; but the status computed on this pass is compared there with
// the one read from the cluster before the difference is written, which
// "desired state compared with the live cluster" may name too. The source
// does not settle which reading the question means, so the answer is not
// settled, citing the write and the test. Nil when no such write is found.
func (a *analysis) ownStatusCompared(reach *callgraph.Reach, kind *types.Named, writes []writeCall) []Step {
	if !a.declares(kind) {
		return nil
	}
	for _, wc := range writes {
		c := wc.call
		if !writesKind(wc.info, c, kind) {
			continue
		}
		test := a.guardOnTheWay(reach, c.in, c.expr, func(info *types.Info, _ *ast.BlockStmt, e ast.Expr) bool {
			return comparesOwnStatus(info, kind, e)
		})
		if test == nil {
			continue
		}
		s, at := a.site(c.expr.Lparen).Site, a.site(test.Pos())
		return []Step{{Site: applySite(s, c.in), Step: StepUnsettled,
			Note: fmt.Sprintf("not settled: the %s of the %s runs only when the test at %s:%d finds its status, as this pass computed it, different from a value read from the cluster; ctrlcmp reads the primary's own status as what the controller reports, not as desired state it corrects, and finds no other comparison, but \"desired state compared with the live cluster\" may name this one", wc.verb, typeName(kind), at.File, at.Line)}}
	}
	return nil
}

// comparesOwnStatus reports whether a condition hands a bool function two
// values of one type, one of them the status of a value of the primary's
// kind or a part of it (reflect.DeepEqual(old.Status, obj.Status),
// equality.Semantic.DeepEqual(used, eq.Status.Used)).
func comparesOwnStatus(info *types.Info, kind *types.Named, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if len(n.Args) != 2 || !isBool(info.TypeOf(n)) {
				return !found
			}
			x, y := info.TypeOf(n.Args[0]), info.TypeOf(n.Args[1])
			if x != nil && y != nil && types.Identical(deref(x), deref(y)) && (ownStatus(info, kind, n.Args[0]) || ownStatus(info, kind, n.Args[1])) {
				found = true
			}
		}
		return !found
	})
	return found
}

// ownStatus reports whether an expression reads the Status of a value of
// the primary's kind (obj.Status, obj.Status.Used).
func ownStatus(info *types.Info, kind *types.Named, e ast.Expr) bool {
	obj, sel := objectAt(info, e)
	return obj != nil && sel != nil && sel.Sel.Name == statusField && isKindValue(info.TypeOf(obj), kind)
}

// writesKind reports whether a write call writes a value of the primary's
// kind: the object it names, or, for a library's function that writes
// inside (patchHelper.Patch(ctx, obj) taking a client.Object), an
// argument of that kind.
func writesKind(info *types.Info, c call, kind *types.Named) bool {
	if t := writtenType(info, c); t != nil {
		return isKindValue(t, kind)
	}
	return slices.ContainsFunc(c.expr.Args, func(arg ast.Expr) bool { return isKindValue(info.TypeOf(arg), kind) })
}
