package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// steadyBranches decides, for the branches of the reached functions, the
// way a succeeding pass of an unchanged object takes them, where that is
// known without running it: in a closure the entry defers, a test of the
// entry's named error result against nil (a pass that succeeds returns a
// nil error); anywhere, a readiness predicate of the primary object (an
// unchanged object that reconciles without failing is ready: the
// knowledge table's RoleSteadyTest), a test of whether the primary object
// exists (existingObjectTest), a test that the error of a call handing
// back an object of the primary kind says the API server holds no such
// object (RoleAbsentTest: an unchanged object exists), or a test that a
// create's error says its object is there already (RoleTakenTest: what a
// pass creates, the one before it made). The map gives, for
// an If's block, the
// index of the successor taken.
func (a *analysis) steadyBranches(entry *ssa.Function, kind *types.Named, fns []*ssa.Function, own map[*ssa.Function]bool) map[*ssa.BasicBlock]int {
	finalErr := deferredFinalError(entry)
	taken := map[*ssa.BasicBlock]int{}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			v, ok := steadyValue(cond.Cond, finalErr, kind, own)
			if !ok {
				v, ok = a.notDeleting(fn, cond.Cond, kind)
			}
			if ok {
				taken[b] = 1
				if v {
					taken[b] = 0
				}
			}
		}
	}
	settleFlags(taken, fns)
	return taken
}

// steadyNormal narrows no function's normal returns but one whose every
// normal return a succeeding pass cannot reach, taking the branches in
// taken its way (a nil return for an object with no name, when the
// object read has one): that pass ends at one of the other returns it can
// reach that hand back no failure, which stand for the normal ones.
func steadyNormal(normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int) map[*ssa.Function][]*ssa.Return {
	out := make(map[*ssa.Function][]*ssa.Return, len(normal))
	for fn, rs := range normal {
		out[fn] = rs
		if len(rs) == 0 || len(fn.Blocks) == 0 {
			continue
		}
		reached := map[*ssa.BasicBlock]bool{}
		stack := []*ssa.BasicBlock{fn.Blocks[0]}
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if reached[b] {
				continue
			}
			reached[b] = true
			if i, ok := taken[b]; ok && i < len(b.Succs) {
				stack = append(stack, b.Succs[i])
				continue
			}
			stack = append(stack, b.Succs...)
		}
		if slices.ContainsFunc(rs, func(r *ssa.Return) bool { return reached[r.Block()] }) {
			continue
		}
		var others []*ssa.Return
		for _, r := range blockReturns(fn) {
			if reached[r.Block()] && !failing(r) {
				others = append(others, r)
			}
		}
		if len(others) > 0 {
			out[fn] = others
		}
	}
	return out
}

// deferredFinalError finds the free variables, in the closures the entry
// defers, bound to the entry's named error result: read there, they hold
// the error the pass returns.
func deferredFinalError(entry *ssa.Function) map[*ssa.FreeVar]bool {
	out := map[*ssa.FreeVar]bool{}
	res := entry.Signature.Results()
	if res.Len() == 0 || !isErrorType(res.At(res.Len()-1).Type()) || res.At(res.Len()-1).Name() == "" {
		return out
	}
	named := res.At(res.Len() - 1)
	for _, mc := range deferredClosures(entry) {
		fn := mc.Fn.(*ssa.Function)
		for i, bound := range mc.Bindings {
			if al, ok := bound.(*ssa.Alloc); ok && al.Pos() == named.Pos() && i < len(fn.FreeVars) {
				out[fn.FreeVars[i]] = true
			}
		}
	}
	return out
}

// deferredClosures are the closures fn defers that capture variables
// (defer func() { … err … }()), each as the value that makes it; its Fn
// is the closure's function.
func deferredClosures(fn *ssa.Function) []*ssa.MakeClosure {
	var out []*ssa.MakeClosure
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok {
				if _, ok := mc.Fn.(*ssa.Function); ok {
					out = append(out, mc)
				}
			}
		}
	}
	return out
}

// steadyValue is the value a branch condition has on a succeeding pass of
// an unchanged object, when it is known.
func steadyValue(v ssa.Value, finalErr map[*ssa.FreeVar]bool, kind *types.Named, own map[*ssa.Function]bool) (bool, bool) {
	if b, ok := existingObjectTest(v, kind); ok {
		return b, true
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.NOT {
			b, ok := steadyValue(x.X, finalErr, kind, own)
			return !b, ok
		}
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false, false
		}
		other := x.X
		if k, ok := x.X.(*ssa.Const); ok && k.IsNil() {
			other = x.Y
		} else if k, ok := x.Y.(*ssa.Const); !ok || !k.IsNil() {
			return false, false
		}
		if e, ok := other.(*ssa.Extract); ok && madeOnSuccess(e) {
			// patch, err := r.compute(…); if patch != nil { write }:
			// a succeeding compute hands back a value it made.
			return x.Op == token.NEQ, true
		}
		if createError(other, 0) {
			// if err := r.Create(ctx, cm); err != nil: the create finds
			// what the pass before made (RoleTakenTest).
			return x.Op == token.NEQ, true
		}
		if passFailure(other, kind, own, map[*ssa.Phi]bool{}) {
			// err = r.step(…); if err == nil { err = r.next(…) }: the
			// error a chain of steps hands on is nil on a pass that
			// succeeds.
			return x.Op == token.EQL, true
		}
		load, ok := other.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return false, false
		}
		if fv, ok := load.X.(*ssa.FreeVar); ok && finalErr[fv] {
			return x.Op == token.EQL, true
		}
	case *ssa.Call:
		fn := calleeObj(&x.Call)
		if fn == nil {
			return false, false
		}
		f, ok := knowledge[funcKey(fn)]
		if ok && f.Role == RoleAbsentTest {
			return false, readsKind(callArgsSSA(&x.Call), f.Obj, kind)
		}
		if ok && f.Role == RoleTakenTest {
			return true, createFailure(callArgsSSA(&x.Call), f.Obj)
		}
		if !ok || f.Role != RoleSteadyTest {
			return false, false
		}
		args := callArgsSSA(&x.Call)
		if f.Obj < 0 || f.Obj >= len(args) || !isKind(madeFrom(args[f.Obj]).Type(), kind) {
			return false, false
		}
		if f.Arg >= 0 && (f.Arg >= len(args) || !isReadyType(args[f.Arg])) {
			return false, false
		}
		return f.True, true
	}
	return false, false
}

// notDeleting is the value a deletion test takes on a pass of an object
// that is not being deleted, when cond is one: the syntax it was built
// from (a call's parenthesis, an operator) is read as the deletion
// rows read a test (deletionTest: the timestamp's own tests, a predicate
// of the tree's that decides it, a local defined from one).
func (a *analysis) notDeleting(fn *ssa.Function, cond ssa.Value, kind *types.Named) (bool, bool) {
	pos := cond.Pos()
	syntax := fn.Syntax()
	if !pos.IsValid() || syntax == nil {
		return false, false
	}
	info := a.infoAt(pos)
	if info == nil {
		return false, false
	}
	var expr ast.Expr
	ast.Inspect(syntax, func(n ast.Node) bool {
		if expr != nil || n == nil || n.Pos() > pos || pos >= n.End() {
			return false
		}
		switch e := n.(type) {
		case *ast.CallExpr:
			if e.Lparen == pos {
				expr = e
			}
		case *ast.UnaryExpr:
			if e.OpPos == pos {
				expr = e
			}
		case *ast.BinaryExpr:
			if e.OpPos == pos {
				expr = e
			}
		case *ast.FuncLit:
			return n == syntax // another function's syntax, unless it is fn's own
		}
		return expr == nil
	})
	if expr == nil {
		return false, false
	}
	switch a.deletionTest(info, expr, kind) {
	case 1:
		return false, true
	case -1:
		return true, true
	}
	return false, false
}

// madeOnSuccess reports whether e, a result of a call of one of the
// tree's functions that also hands back an error, is at each of its
// returns with a nil error a value made there (&T{}, new(T)), never nil:
// what a call that succeeds hands back. A return that hands back another
// such call's results whole (return r.rest(…)) hands back what that one
// makes. Such a return must exist.
func madeOnSuccess(e *ssa.Extract) bool {
	call, ok := e.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	made, ok := madeAt(call.Call.StaticCallee(), e.Index, 3)
	return made && ok
}

// madeAt is madeOnSuccess for result i of fn, following hand-backs depth
// calls deep: made is false when a return with a nil error may hand back
// something else; ok says fn has such a return (a helper that only fails,
// handed back whole, has none).
func madeAt(fn *ssa.Function, i, depth int) (made, ok bool) {
	if fn == nil || len(fn.Blocks) == 0 || depth == 0 {
		return false, true
	}
	res := fn.Signature.Results()
	last := res.Len() - 1
	if last < 1 || i == last || !isErrorType(res.At(last).Type()) {
		return false, true
	}
	for _, b := range fn.Blocks {
		r, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet || len(r.Results) != res.Len() {
			continue
		}
		v, errV := resultOf(r, i), resultOf(r, last)
		if x, isX := v.(*ssa.Extract); isX {
			// return r.rest(…), handed back whole.
			if ex, isEx := errV.(*ssa.Extract); isEx && ex.Tuple == x.Tuple {
				c, isCall := x.Tuple.(*ssa.Call)
				if !isCall {
					return false, true
				}
				m, o := madeAt(c.Call.StaticCallee(), x.Index, depth-1)
				if o && !m {
					return false, true
				}
				ok = ok || o
				continue
			}
		}
		if k, isK := errV.(*ssa.Const); !isK || !k.IsNil() {
			continue
		}
		if !madeValue(v) {
			return false, true
		}
		ok = true
	}
	return true, ok
}

// madeValue reports whether v is a value made where it stands (&T{},
// new(T)), or read from a variable every store of which holds one (a
// made value a closure captures lives in such a variable).
func madeValue(v ssa.Value) bool {
	if _, ok := v.(*ssa.Alloc); ok {
		return true
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	cell, ok := load.X.(*ssa.Alloc)
	if !ok || cell.Referrers() == nil {
		return false
	}
	stores := 0
	var storesTo func(addr ssa.Value) bool
	storesTo = func(addr ssa.Value) bool {
		for _, ref := range *addr.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if ref.Addr != addr {
					continue
				}
				if _, made := ref.Val.(*ssa.Alloc); !made {
					return false
				}
				stores++
			case *ssa.MakeClosure:
				// A closure the variable is bound to may store too.
				fn, ok := ref.Fn.(*ssa.Function)
				if !ok {
					return false
				}
				for i, b := range ref.Bindings {
					if b == addr && (i >= len(fn.FreeVars) || !storesTo(fn.FreeVars[i])) {
						return false
					}
				}
			}
		}
		return true
	}
	return storesTo(cell) && stores > 0
}

// readsKind reports whether argument i is the error of a call handing
// back an object of the primary kind with it (obj, err := get(name)): an
// unchanged object exists, so that error is never its absence.
func readsKind(args []ssa.Value, i int, kind *types.Named) bool {
	if i < 0 || i >= len(args) {
		return false
	}
	e, ok := madeFrom(args[i]).(*ssa.Extract)
	if !ok {
		return false
	}
	call, ok := e.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	res, ok := call.Type().(*types.Tuple)
	return ok && res.Len() == 2 && e.Index == 1 && isKind(res.At(0).Type(), kind)
}

// createFailure reports whether the error args[i] is the one a create
// hands back (if err := r.Create(ctx, cm); err != nil { if
// apierrors.IsAlreadyExists(err) { … } }), directly or through functions
// of the tree's whose every return hands back one (a closure called
// there, a helper that only creates): on a pass after one that succeeded,
// what the pass creates is there already, so the create finds its name
// taken.
func createFailure(args []ssa.Value, i int) bool {
	if i < 0 || i >= len(args) {
		return false
	}
	return createError(args[i], 0)
}

// maxCreateHops bounds the functions createError follows a create's
// error back through.
const maxCreateHops = 3

// createError reports whether v is a create's error, made by the call
// itself or handed back by every return of the one function a call runs.
func createError(v ssa.Value, depth int) bool {
	call, ok := v.(*ssa.Call)
	if !ok || depth > maxCreateHops {
		return false
	}
	if fn := calleeObj(&call.Call); fn != nil && knowledge[funcKey(fn)].Verb == verbCreate {
		return true
	}
	var callee *ssa.Function
	switch f := call.Call.Value.(type) {
	case *ssa.Function:
		callee = f
	case *ssa.MakeClosure:
		callee, _ = f.Fn.(*ssa.Function)
	}
	if callee == nil || call.Call.IsInvoke() || callee.Signature.Results().Len() != 1 {
		return false
	}
	rets := blockReturns(callee)
	for _, r := range rets {
		if len(r.Results) != 1 || !createError(r.Results[0], depth+1) {
			return false
		}
	}
	return len(rets) > 0
}

// isReadyType reports whether a condition type argument is the readiness
// type, "Ready".
func isReadyType(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.String && constant.StringVal(k.Value) == readyConditionType
}

// madeFrom is the value an interface is made from, or v.
func madeFrom(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

// existingObjectTest is the value, on a pass of an unchanged object, of a
// test of whether the primary object exists in the cluster: one read from
// it has been created and has a name, so its creation timestamp's IsZero
// is false and its name is not "". A test of another kind's object, or of
// a name or timestamp held elsewhere, is not known.
func existingObjectTest(v ssa.Value, kind *types.Named) (bool, bool) {
	switch x := v.(type) {
	case *ssa.Call:
		fn := calleeObj(&x.Call)
		if fn == nil || funcKey(fn) != "(*"+metaTime+").IsZero" || len(x.Call.Args) != 1 {
			return false, false
		}
		if fa, ok := x.Call.Args[0].(*ssa.FieldAddr); ok && primaryMetaField(fa, kind) == "CreationTimestamp" {
			return false, true
		}
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false, false
		}
		name := x.X
		if !isEmptyString(x.Y) {
			if !isEmptyString(x.X) {
				return false, false
			}
			name = x.Y
		}
		if primaryName(name, kind) {
			return x.Op == token.NEQ, true
		}
	}
	return false, false
}

// metaTime is the type of an object's timestamps.
const metaTime = "k8s.io/apimachinery/pkg/apis/meta/v1.Time"

// primaryMetaField is the name of the ObjectMeta field whose address fa
// is, when the ObjectMeta is the one a value of the primary kind embeds;
// "" otherwise.
func primaryMetaField(fa *ssa.FieldAddr, kind *types.Named) string {
	st, ok := deref(fa.X.Type()).Underlying().(*types.Struct)
	if !ok || typeKey(fa.X.Type()) != typeObjectMeta || !primaryMeta(fa.X, kind) {
		return ""
	}
	return st.Field(fa.Field).Name()
}

// primaryMeta reports whether v is the address of the ObjectMeta a value
// of the primary kind embeds.
func primaryMeta(v ssa.Value, kind *types.Named) bool {
	fa, ok := v.(*ssa.FieldAddr)
	return ok && kind != nil && isKind(fa.X.Type(), kind)
}

// primaryName reports whether v is the primary object's name: its Name
// field loaded, or its GetName().
func primaryName(v ssa.Value, kind *types.Named) bool {
	switch x := v.(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		return ok && x.Op == token.MUL && primaryMetaField(fa, kind) == "Name"
	case *ssa.Call:
		fn := calleeObj(&x.Call)
		return fn != nil && funcKey(fn) == "(*"+typeObjectMeta+").GetName" && len(x.Call.Args) == 1 && primaryMeta(x.Call.Args[0], kind)
	}
	return false
}

// isEmptyString reports whether v is the constant "".
func isEmptyString(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.String && constant.StringVal(k.Value) == ""
}

// testsExistence reports whether a condition, negated or not, is a test of
// whether the primary object exists, as existingObjectTest reads one in
// the syntax: its creation timestamp's IsZero(), or its name (Name,
// GetName()) against "".
func testsExistence(info *types.Info, cond ast.Expr, kind *types.Named) bool {
	cond = ast.Unparen(cond)
	if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return testsExistence(info, u.X, kind)
	}
	switch e := cond.(type) {
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "IsZero" || typeKey(info.TypeOf(sel.X)) != metaTime {
			return false
		}
		ts, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
		return ok && ts.Sel.Name == "CreationTimestamp" && isKindHolder(info, ts.X, kind)
	case *ast.BinaryExpr:
		if e.Op != token.EQL && e.Op != token.NEQ {
			return false
		}
		for _, side := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
			if lit, ok := ast.Unparen(side[1]).(*ast.BasicLit); !ok || lit.Kind != token.STRING || lit.Value != `""` {
				continue
			}
			switch n := ast.Unparen(side[0]).(type) {
			case *ast.SelectorExpr:
				if n.Sel.Name == "Name" && isKindHolder(info, n.X, kind) {
					return true
				}
			case *ast.CallExpr:
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "GetName" && len(n.Args) == 0 && isKindHolder(info, sel.X, kind) {
					return true
				}
			}
		}
	}
	return false
}

// foundBranches is taken, and every test of the reached functions of an
// error for an object the API server does not hold (apierrors.IsNotFound)
// taken the way of an object it holds: the pass of an unchanged object
// whose reads find what they read.
func foundBranches(taken map[*ssa.BasicBlock]int, fns []*ssa.Function) map[*ssa.BasicBlock]int {
	out := maps.Clone(taken)
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			call, ok := cond.Cond.(*ssa.Call)
			if !ok {
				continue
			}
			if callee := calleeObj(&call.Call); callee != nil && knowledge[funcKey(callee)].Role == RoleAbsentTest {
				out[b] = 1
			}
		}
	}
	settleFlags(out, fns)
	return out
}
