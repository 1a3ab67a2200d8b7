package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The finalizer rows of a generated reconciler: what its generated code
// adds and removes, the constant it is built from, and what FinalizeKind
// returns.

// generatedFinalizerRows answers the finalizer rows: with FinalizeKind,
// the generated code's additions and removals of the finalizer in the set
// built from the object's list, its constant, and FinalizeKind as the
// cleanup; without, none.
func (p *pass) generatedFinalizerRows(g *generatedKind, rows map[string]Row) {
	if g.finalizeKind == nil {
		p.handWrittenFinalizerRows(g, rows)
		return
	}
	adds, removes := p.generatedFinalizerOps()
	// The generated code may remove the finalizer on two branches, for a
	// nil event and for a normal one: the branch FinalizeKind's success
	// takes comes first. When the removals cannot all be told apart so,
	// which one runs is not settled.
	removeUnsettled := ""
	var fromAdd []*ssa.Function
	if len(adds) > 0 {
		fromAdd = p.a.prog.Reachable(adds[0].in).Funcs()
	}
	// The removals in a helper the addition shares (the patch of the
	// list both ways) are ordered after the cleanup's own below.
	var own []finOp
	for _, op := range removes {
		if !slices.Contains(fromAdd, op.in) {
			own = append(own, op)
		}
	}
	if len(own) > 1 {
		taken := p.a.finalizeOutcome(g.finalizeKind)
		told := taken != ""
		for _, op := range own {
			told = told && p.a.eventBranch(op) != ""
		}
		if told {
			slices.SortStableFunc(removes, func(x, y finOp) int {
				return boolOrder(p.a.eventBranch(x) != taken) - boolOrder(p.a.eventBranch(y) != taken)
			})
		} else {
			var at []string
			for _, op := range own {
				s := p.a.site(op.pos)
				at = append(at, fmt.Sprintf("%s:%d", s.File, s.Line))
			}
			removeUnsettled = "not settled: the generated code removes the finalizer at " + strings.Join(at, ", ") + ", and which of them the event " + generatedFinalizeMethod + " returns leads to was not told apart"
		}
	}
	// An addition's function may also remove (a helper that syncs the list
	// both ways): the removals the cleanup alone reaches come first.
	if len(adds) > 0 {
		slices.SortStableFunc(removes, func(x, y finOp) int {
			return boolOrder(slices.Contains(fromAdd, x.in)) - boolOrder(slices.Contains(fromAdd, y.in))
		})
	}
	var consts []Site
	seen := map[finName]bool{}
	for _, op := range append(append([]finOp(nil), adds...), removes...) {
		for _, n := range p.a.finalizerNames(op, g.handed[g.reconcileKind]) {
			if seen[n] {
				continue
			}
			seen[n] = true
			consts = append(consts, p.a.finNameSite(n))
		}
	}
	none := "not settled: the generated reconciler calls " + generatedFinalizeMethod + ", but no change of the finalizer set built from the object's list was found on the reconcile path"
	rows[RowFinalizerConst] = rowOf(consts, "not settled: the finalizer the generated code adds was not followed to a constant")
	rows[RowFinalizerAdd] = rowOf(p.opSites(adds), none)
	rows[RowFinalizerRemove] = rowOf(p.opSites(removes), none)
	if removeUnsettled != "" {
		rows[RowFinalizerRemove] = Row{Sites: p.opSites(removes), None: removeUnsettled}
	}
	cleanup := p.a.funcSite(g.finalizeKind)
	cleanup.Primary = true
	call := p.a.site(g.finalizeAt)
	call.Note = "the generated code runs it once the object is being deleted"
	rows[RowFinalizerCleanup] = Row{Sites: []Site{cleanup, call}}
}

// handWrittenFinalizerRows answers the finalizer rows of a type that does
// not implement the generated Finalizer: the generated reconciler neither
// adds nor removes one, and runs nothing once the object is being deleted,
// so what is left is what the hand-written code reached from ReconcileKind
// does to the object's list. ReconcileKind runs only while the object is
// not being deleted: a removal there drops a finalizer from a live object
// (one an older version added), which nothing of this controller needs.
func (p *pass) handWrittenFinalizerRows(g *generatedKind, rows map[string]Row) {
	reason := fmt.Sprintf("no finalizer: %s does not implement the generated Finalizer (no %s method), so the generated reconciler neither adds nor removes one", syncName(g.reconcileKind), generatedFinalizeMethod)
	searched := "the type implementing the generated Interface, checked against the generated Finalizer interface"
	p.finOps = p.a.finalizerOps(p.a.prog.Reachable(g.reconcileKind).Funcs(), p.kind())
	p.cleanupRes = nil
	ops := p.finOps
	if ops.absent() {
		for _, id := range []string{RowFinalizerConst, RowFinalizerAdd, RowFinalizerCleanup, RowFinalizerRemove} {
			rows[id] = noneAfter(reason, searched)
		}
		return
	}
	rows[RowFinalizerConst] = finalizerConstRow(p)
	rows[RowFinalizerRemove] = finalizerRemoveRow(p)
	cleanup := fmt.Sprintf("no cleanup: %s does not implement the generated Finalizer (no %s method), so the generated reconciler runs nothing once the object is being deleted", syncName(g.reconcileKind), generatedFinalizeMethod)
	rows[RowFinalizerCleanup] = noneAfter(cleanup, searched)
	if len(ops.adds) > 0 {
		rows[RowFinalizerAdd] = finalizerAddRow(p)
		return
	}
	removed := p.a.site(ops.removes[0].pos)
	rows[RowFinalizerAdd] = ops.none(fmt.Sprintf("%s; the hand-written code removes a finalizer at %s:%d, reached from %s, which the generated reconciler runs only while the object is not being deleted: it drops from a live object a finalizer an older version added, and adds none",
		reason, removed.File, removed.Line, generatedKindMethod))
}

// generatedFinalizerOps returns the additions and removals of the
// finalizer in a string set built from the primary object's list, on the
// reconcile path.
func (p *pass) generatedFinalizerOps() (adds, removes []finOp) {
	for _, fn := range p.reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := p.a.infoAt(b.Pos())
		for _, c := range p.a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleSetInsert && c.fact.Role != RoleSetDelete {
				continue
			}
			set := p.a.target(info, c.expr.Fun, 0).recv
			if set == nil || !p.a.finalizerSetIn(fn, info, b, set, p.kind(), 0) {
				continue
			}
			op := finOp{pos: c.expr.Lparen, value: c.arg(c.fact.Arg), info: info, in: fn}
			if c.fact.Role == RoleSetInsert {
				adds = append(adds, op)
			} else {
				removes = append(removes, op)
			}
		}
	}
	return adds, removes
}

// boolOrder orders false before true.
func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}

// opSites cites finalizer operations, in order.
func (p *pass) opSites(ops []finOp) []Site {
	var out []Site
	for _, op := range ops {
		out = append(out, p.a.site(op.pos))
	}
	return out
}

// finalizerSetIn reports whether a set fn changes is built from the
// finalizer list of an object of the primary type: in fn's body (the
// function holding fn, for a closure), or, when it is a parameter of fn (a
// helper ranging over the values it changes the set by), at every call of
// fn, up to maxTypeCallers callers up.
func (a *analysis) finalizerSetIn(fn *ssa.Function, info *types.Info, b *ast.BlockStmt, set ast.Expr, kind *types.Named, depth int) bool {
	if a.finalizerSet(info, b, set, kind) {
		return true
	}
	if outer := outermost(fn); outer != fn {
		if ob := body(outer); ob != nil && a.finalizerSet(info, ob, set, kind) {
			return true
		}
	}
	id, ok := ast.Unparen(set).(*ast.Ident)
	if !ok || depth >= maxTypeCallers {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || !paramIn(fn, v) {
		return false
	}
	index := -1
	for i := 0; i < fn.Signature.Params().Len(); i++ {
		if fn.Signature.Params().At(i) == v {
			index = i
		}
	}
	found := false
	for _, e := range a.prog.CallsInto(fn) {
		caller := e.Caller.Func
		cb := body(caller)
		if cb == nil || e.Site == nil {
			return false
		}
		var call *ast.CallExpr
		for _, c := range a.callsIn(caller) {
			if c.expr.Lparen == e.Site.Common().Pos() {
				call = c.expr
			}
		}
		if call == nil || index >= len(call.Args) {
			return false
		}
		if !a.finalizerSetIn(caller, a.infoAt(cb.Pos()), cb, call.Args[index], kind, depth+1) {
			return false
		}
		found = true
	}
	return found
}

// finalizerSet reports whether a set is built, in the body, from the
// finalizer list of an object of the primary type.
func (a *analysis) finalizerSet(info *types.Info, b *ast.BlockStmt, set ast.Expr, kind *types.Named) bool {
	id, ok := ast.Unparen(set).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	from := false
	ast.Inspect(b, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return !from
		}
		for i, l := range as.Lhs {
			lid, ok := l.(*ast.Ident)
			if !ok || info.Defs[lid] != v && info.Uses[lid] != v {
				continue
			}
			ast.Inspect(as.Rhs[i], func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && fieldOf(info, sel) == fieldFinalizers && ofKind(info, sel.X, kind) {
					from = true
				}
				return !from
			})
		}
		return !from
	})
	return from
}

// finName is a finalizer's name as the tree writes it: a constant, or a
// string literal where no constant declares it.
type finName struct {
	k   *types.Const
	lit *ast.BasicLit
}

// finNameOf is the finalizer name an expression is, when it is a constant
// or a string literal.
func finNameOf(info *types.Info, e ast.Expr) (finName, bool) {
	if k := constOf(info, e); k != nil {
		return finName{k: k}, true
	}
	if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return finName{lit: lit}, true
	}
	return finName{}, false
}

// finNameSite cites a finalizer name: the constant's declaration, or the
// literal.
func (a *analysis) finNameSite(n finName) Site {
	if n.k != nil {
		s := a.objSite(n.k)
		s.Name = constant.StringVal(n.k.Val())
		return s
	}
	s := a.site(n.lit.Pos())
	if v, err := strconv.Unquote(n.lit.Value); err == nil {
		s.Name = v
	}
	s.Note = "a string literal: the tree stores no constant here"
	return s
}

// finalizerNames follows the finalizer an operation is handed to its
// names: a constant or literal itself, or the names the tree stores in
// the field it reads (finalizerFieldNames), an option's override counted
// only in the call handing this controller's type to the generated
// constructor (handing; anywhere when nil). It returns nil when a store
// is not followed to a name.
func (a *analysis) finalizerNames(op finOp, handing *ast.CallExpr) []finName {
	if op.value == nil {
		return nil
	}
	if n, ok := finNameOf(op.info, op.value); ok {
		return []finName{n}
	}
	sel, ok := ast.Unparen(op.value).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	field, ok := op.info.Uses[sel.Sel].(*types.Var)
	if !ok || !field.IsField() {
		return nil
	}
	names, settled := a.finalizerFieldNames(field, handing, 0)
	if !settled {
		return nil
	}
	return names
}

// finalizerFieldNames returns the names (constants, or literals where no
// constant is written) every keyed literal and assignment of the tree
// stores in a field: a store of another field (an option's override) is
// followed in turn, and its names come first (an override wins over the
// default); a field nothing stores adds none. It is not settled when a
// store is neither. The stores of an override count only inside the call
// handing the controller's type (the options of the tree's other
// controllers are theirs), and are not settled when that call hands an
// options function other than a literal.
func (a *analysis) finalizerFieldNames(field *types.Var, handing *ast.CallExpr, depth int) ([]finName, bool) {
	var defaults, overrides []finName
	settled := depth < 3
	if depth > 0 && handing != nil {
		info := a.infoAt(handing.Pos())
		for _, arg := range handing.Args {
			if _, isFunc := info.TypeOf(arg).Underlying().(*types.Signature); isFunc {
				if _, lit := ast.Unparen(arg).(*ast.FuncLit); !lit {
					return nil, false
				}
			}
		}
	}
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n != nil && depth > 0 && handing != nil && (n.End() <= handing.Pos() || n.Pos() >= handing.End()) {
				return false
			}
			var value ast.Expr
			switch n := n.(type) {
			case *ast.CompositeLit:
				keyedFields(info, n, func(v *types.Var, kv *ast.KeyValueExpr) {
					if v == field {
						value = kv.Value
					}
				})
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if s, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && info.Uses[s.Sel] == field && len(n.Lhs) == len(n.Rhs) {
						value = n.Rhs[i]
					}
				}
			}
			if value == nil || !settled {
				return settled
			}
			if name, ok := finNameOf(info, value); ok {
				if !slices.Contains(defaults, name) {
					defaults = append(defaults, name)
				}
				return true
			}
			sel, ok := ast.Unparen(value).(*ast.SelectorExpr)
			other, isVar := (*types.Var)(nil), false
			if ok {
				other, isVar = info.Uses[sel.Sel].(*types.Var)
			}
			if !isVar || !other.IsField() || other == field {
				settled = false
				return false
			}
			sub, ok := a.finalizerFieldNames(other, handing, depth+1)
			if !ok {
				settled = false
				return false
			}
			for _, name := range sub {
				if !slices.Contains(overrides, name) {
					overrides = append(overrides, name)
				}
			}
			return true
		})
	}
	return append(overrides, defaults...), settled
}

// Outcomes of a hand-written method for the generated code's tests of the
// event it returned.
const (
	eventNil    = "nil"
	eventNormal = "event"
)

// finalizeOutcome says what FinalizeKind returns on its success path (the
// returns no condition guards): eventNil when they are all nil when the
// pass succeeds (nilOnSuccess), eventNormal when they are all normal
// events, "" otherwise.
func (a *analysis) finalizeOutcome(fn *ssa.Function) string {
	if a.normalEventReturn(fn) != "" {
		return eventNormal
	}
	b := body(fn)
	if b == nil {
		return ""
	}
	info := a.infoAt(b.Pos())
	allNil, some := true, false
	a.eventResults(fn, info, b, scope{}, func(r *ast.ReturnStmt, e ast.Expr, _ ast.Node, sc scope, settled bool) {
		if sc.guard != guardNone {
			return
		}
		some = true
		allNil = allNil && settled && (e == nil || isNil(info, e) || a.nilOnSuccess(fn, info, r, e))
	})
	if some && allNil {
		return eventNil
	}
	return ""
}

// nilOnSuccess reports whether a returned error is nil when the pass
// succeeds: an error a test found nil on every path to the return, or the
// error of a write the return hands back (return client.Delete(…)), which
// is nil when the write succeeds and an API error, never an event, when
// it fails.
func (a *analysis) nilOnSuccess(fn *ssa.Function, info *types.Info, r *ast.ReturnStmt, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return testedNilReturn(fn, r)
	case *ast.CallExpr:
		_, write := a.writeOf(info, a.makeCall(info, e, fn))
		return write
	}
	return false
}

// eventBranch says on which outcome of the hand-written method a change of
// the finalizer set is made, from the innermost test of an event against
// nil around it: eventNil in the branch taken for nil, eventNormal in the
// other; "" when no such test guards it.
func (a *analysis) eventBranch(op finOp) string {
	path := a.path(op.pos, op.pos)
	for i := 1; i < len(path); i++ {
		ifs, ok := path[i].(*ast.IfStmt)
		if !ok {
			continue
		}
		be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.NEQ && be.Op != token.EQL {
			continue
		}
		x := be.X
		switch {
		case isNil(op.info, be.Y):
		case isNil(op.info, be.X):
			x = be.Y
		default:
			continue
		}
		if typeKey(op.info.TypeOf(x)) != typeEvent {
			continue
		}
		if inBody := path[i-1] == ifs.Body; inBody == (be.Op == token.NEQ) {
			return eventNormal
		}
		return eventNil
	}
	return ""
}
