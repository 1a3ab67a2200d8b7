package locate

import (
	"go/ast"
	"go/types"
	"slices"
)

// Reads through the tree's own helpers. A function of the tree that reads
// an object by a key it is handed, without knowing the object's type (the
// read hands back an interface, or a type parameter), and returns what it
// read, is a read wherever it is called: a method over several generic
// listers, a generic ObjectFromKey[T](informers, key). Its key is the
// argument of that parameter; its object type is the call's result type
// when that is an object pointer (a generic helper's T as instantiated at
// the call), else the type the caller asserts the result to. A helper whose
// read already names the object's type is not one: its read is cited where
// it is, as before.

// helperReadKey is the key argument of a call of an own read helper, or
// nil.
func (a *analysis) helperReadKey(c call) ast.Expr {
	if c.fn == nil || a.decls[c.fn.Origin()] == nil {
		return nil
	}
	return c.arg(a.readHelperKey(c.fn.Origin()))
}

// helperReadType is the object type a call of a read helper reads, or nil.
func (a *analysis) helperReadType(info *types.Info, c call) types.Type {
	if t := objectResult(info, c); t != nil {
		return t
	}
	return a.assertedResult(c)
}

// objectResult is a call's first result type, as instantiated at the call,
// when it is an object pointer; else nil.
func objectResult(info *types.Info, c call) types.Type {
	if sig, ok := info.TypeOf(c.expr.Fun).(*types.Signature); ok && sig.Results().Len() > 0 && IsObjectPointer(sig.Results().At(0).Type()) {
		return sig.Results().At(0).Type()
	}
	return nil
}

// readHelperState memoises readHelperKey. A function in a recursive cycle
// is worked out again with its answer so far until that answer holds, and
// an answer that used the answer so far of a function still being worked
// out is not kept, so that every answer is the same whichever function or
// controller asks first.
type readHelperState struct {
	settled map[*types.Func]int
	// pending are the functions being worked out, by their depth, and
	// sofar their answers so far.
	pending map[*types.Func]int
	sofar   map[*types.Func]int
	// low is the lowest depth of a pending function whose answer so far
	// the answer being worked out used.
	low int
}

func newReadHelperState() *readHelperState {
	return &readHelperState{settled: map[*types.Func]int{}, pending: map[*types.Func]int{}, sofar: map[*types.Func]int{}}
}

// readHelperKey is the index of the parameter of an own function whose
// value, or what is computed from it, keys an untyped read whose result the
// function returns; -1 when there is none.
func (a *analysis) readHelperKey(fn *types.Func) int {
	st := a.readHelpers
	if i, ok := st.settled[fn]; ok {
		return i
	}
	if d, ok := st.pending[fn]; ok {
		st.low = min(st.low, d)
		return st.sofar[fn]
	}
	depth := len(st.pending)
	st.pending[fn], st.sofar[fn] = depth, -1
	outer := st.low
	found := -1
	for range 8 {
		st.low = depth + 1
		found = a.readHelperScan(fn)
		if st.low > depth || found == st.sofar[fn] {
			break
		}
		st.sofar[fn] = found // a cycle through fn: again, with this answer
	}
	delete(st.pending, fn)
	delete(st.sofar, fn)
	if st.low >= depth {
		st.settled[fn] = found
	}
	st.low = min(outer, st.low)
	return found
}

// readHelperScan works out readHelperKey for one function.
func (a *analysis) readHelperScan(fn *types.Func) int {
	fd := a.decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	if fd == nil || fd.Body == nil || sig == nil {
		return -1
	}
	info := a.infoAt(fd.Pos())
	if info == nil {
		return -1
	}
	found := -1
	a.allCalls(fd, func(c call) {
		if found >= 0 {
			return
		}
		key := a.untypedReadKey(info, c)
		if key == nil || !readFlowsOut(info, fd, c) {
			return
		}
		found = paramFeeding(info, fd.Body, sig, key)
	})
	return found
}

// untypedReadKey is the key argument of a read that does not name the
// object's type where it is made: a known read handing back an interface
// or filling an object of a type parameter, or another read helper's call
// whose result is no object pointer.
func (a *analysis) untypedReadKey(info *types.Info, c call) ast.Expr {
	if c.known && c.fact.Role == RoleRead {
		if c.fact.Obj >= 0 {
			if o := c.arg(c.fact.Obj); o == nil || IsObjectPointer(info.TypeOf(o)) {
				return nil
			}
		}
		return c.arg(c.fact.Key)
	}
	if objectResult(info, c) != nil {
		return nil
	}
	return a.helperReadKey(c)
}

// readFlowsOut reports whether what a read call gives (its result, or
// the object it reads into) is handed back as the first result of the
// function fd declares: returned as it is, or through the variables it is
// assigned to, by a return or by a bare return of the named results it
// was assigned to; also when a function literal returns it and the
// function calls that literal where it stands or through the variable
// holding it (return func() (T, error) { return read }()).
func readFlowsOut(info *types.Info, fd *ast.FuncDecl, c call) bool {
	body := fd.Body
	vars := map[*types.Var]bool{}
	if c.known && c.fact.Obj >= 0 {
		ast.Inspect(c.arg(c.fact.Obj), func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					vars[v] = true
				}
			}
			return true
		})
	}
	vals := literalCalls(info, body, c.expr)
	for _, e := range vals {
		assignedFrom(info, body, e, true, vars)
	}
	if returnsFirst(fd, func(e ast.Expr) bool { return slices.Contains(vals, ast.Unparen(e)) }) {
		return true
	}
	if len(vars) == 0 {
		return false
	}
	taint(info, body, vars)
	return returnsFirst(fd, func(e ast.Expr) bool { return mentions(info, e, vars) || namesVar(info, e, vars) })
}

// returnsFirst reports whether a return of fd, not of its closures, hands
// back a first result that is accepts: the expression returned, or, for a
// bare return, the first named result's name.
func returnsFirst(fd *ast.FuncDecl, is func(ast.Expr) bool) bool {
	var named *ast.Ident
	if res := fd.Type.Results; res != nil && len(res.List) > 0 && len(res.List[0].Names) > 0 {
		named = res.List[0].Names[0]
	}
	found := false
	returnsOf(fd.Body, func(r *ast.ReturnStmt) {
		switch {
		case len(r.Results) > 0:
			found = found || is(r.Results[0])
		case named != nil:
			found = found || is(named)
		}
	})
	return found
}

// namesVar reports whether e is the declaring name of a variable in vars
// (a named result).
func namesVar(info *types.Info, e ast.Expr, vars map[*types.Var]bool) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Defs[id].(*types.Var)
	return ok && vars[v]
}

// literalCalls is e, and each call in body, outside function literals,
// that hands back what e gives as its first result because a function
// literal returns e first: the literal called where it stands, or the
// calls of the local variable holding it; through literals nested in
// literals too.
func literalCalls(info *types.Info, body *ast.BlockStmt, e ast.Expr) []ast.Expr {
	parents := map[ast.Node]ast.Node{}
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			parents[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	// The literal whose own return hands v back first, or nil.
	returnedBy := func(v ast.Expr) *ast.FuncLit {
		var n ast.Node = v
		for p := parents[n]; p != nil; n, p = p, parents[p] {
			if _, ok := p.(*ast.ParenExpr); ok {
				continue
			}
			r, ok := p.(*ast.ReturnStmt)
			if !ok || len(r.Results) == 0 || r.Results[0] != n {
				return nil
			}
			for q := parents[r]; q != nil; q = parents[q] {
				if lit, ok := q.(*ast.FuncLit); ok {
					return lit
				}
			}
			return nil
		}
		return nil
	}
	out := []ast.Expr{e}
	for i := 0; i < len(out); i++ {
		lit := returnedBy(out[i])
		if lit == nil {
			continue
		}
		var n ast.Node = lit
		p := parents[n]
		for _, ok := p.(*ast.ParenExpr); ok; _, ok = p.(*ast.ParenExpr) {
			n, p = p, parents[p]
		}
		switch p := p.(type) {
		case *ast.CallExpr:
			if p.Fun == n {
				out = append(out, p)
			}
		case *ast.AssignStmt:
			for j, r := range p.Rhs {
				if r == n && j < len(p.Lhs) && len(p.Lhs) == len(p.Rhs) {
					out = append(out, callsOfVar(info, body, p.Lhs[j])...)
				}
			}
		}
	}
	return out
}

// callsOfVar are the calls in body of the local variable lhs names.
func callsOfVar(info *types.Info, body *ast.BlockStmt, lhs ast.Expr) []ast.Expr {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return nil
	}
	var out []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		if ce, ok := n.(*ast.CallExpr); ok {
			if fid, ok := ast.Unparen(ce.Fun).(*ast.Ident); ok && info.Uses[fid] == v {
				out = append(out, ce)
			}
		}
		return true
	})
	return out
}

// Reads from a store of the tree's own. A function of the tree that looks
// up a map held in a field (a cache its informer handlers fill) by a key it
// is handed, and returns what it found (or a copy of it) as its first
// result, of a type that carries an object (an object pointer, or a record
// holding objects of one type: the object and its pods), reads that object
// by that key.

// cacheRead is the key argument and the object pointer type of a call of
// such a store read, or nil.
// A call through an interface (the cache held as its interface) reads
// when every function of the tree the call graph says it runs does, by the
// same parameter, an object of the same kind.
func (a *analysis) cacheRead(c call) (ast.Expr, types.Type) {
	var fns []*types.Func
	switch {
	case c.fn != nil && a.decls[c.fn.Origin()] != nil:
		fns = []*types.Func{c.fn.Origin()}
	case dynamicCall(&c):
		for _, g := range c.own {
			fn, ok := g.Object().(*types.Func)
			if !ok || a.decls[fn.Origin()] == nil {
				return nil, nil
			}
			fns = append(fns, fn.Origin())
		}
	}
	if len(fns) == 0 {
		return nil, nil
	}
	i, kind := a.cacheReadKey(fns[0])
	if i < 0 {
		return nil, nil
	}
	for _, fn := range fns[1:] {
		if j, k := a.cacheReadKey(fn); j != i || !types.Identical(k, kind) {
			return nil, nil
		}
	}
	return c.arg(i), types.NewPointer(kind)
}

type cacheReadAnswer struct {
	key  int
	kind *types.Named
}

// cacheReadKey is the index of the parameter keying a function's store
// read and the kind of the object it reads; -1 when it makes none.
func (a *analysis) cacheReadKey(fn *types.Func) (int, *types.Named) {
	if r, ok := a.cacheReads[fn]; ok {
		return r.key, r.kind
	}
	r := a.cacheReadScan(fn)
	a.cacheReads[fn] = r
	return r.key, r.kind
}

func (a *analysis) cacheReadScan(fn *types.Func) cacheReadAnswer {
	none := cacheReadAnswer{key: -1}
	fd := a.decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	if fd == nil || fd.Body == nil || sig == nil || sig.Results().Len() == 0 {
		return none
	}
	kind := carriedKind(sig.Results().At(0).Type())
	info := a.infoAt(fd.Pos())
	if kind == nil || info == nil {
		return none
	}
	found := none
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found.key >= 0 {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ix, ok := n.(*ast.IndexExpr)
		if !ok {
			return true
		}
		if _, field := ast.Unparen(ix.X).(*ast.SelectorExpr); !field {
			return true
		}
		m, ok := info.TypeOf(ix.X).Underlying().(*types.Map)
		if !ok || carriedKind(m.Elem()) == nil || !types.Identical(carriedKind(m.Elem()), kind) || !indexFlowsOut(info, fd, ix) {
			return true
		}
		for i := 0; i < sig.Params().Len(); i++ {
			vars := map[*types.Var]bool{sig.Params().At(i): true}
			taint(info, fd.Body, vars)
			if mentions(info, ix.Index, vars) {
				found = cacheReadAnswer{key: i, kind: kind}
				return false
			}
		}
		return true
	})
	return found
}

// indexFlowsOut reports whether the value a map lookup finds reaches the
// first result of a return of fd: returned as it is, or assigned and
// returned (also as the receiver of a copying method, or a field).
func indexFlowsOut(info *types.Info, fd *ast.FuncDecl, ix *ast.IndexExpr) bool {
	vars := map[*types.Var]bool{}
	assignedFrom(info, fd.Body, ix, true, vars)
	heldFrom(info, fd.Body, vars)
	return returnsFirst(fd, func(e ast.Expr) bool {
		return ast.Unparen(e) == ix || len(vars) > 0 && (mentions(info, e, vars) || namesVar(info, e, vars))
	})
}

// paramFeeding is the index of the first parameter of a function (its
// body and signature) whose value flows into key, -1 when none does.
func paramFeeding(info *types.Info, body *ast.BlockStmt, sig *types.Signature, key ast.Expr) int {
	for i := 0; i < sig.Params().Len(); i++ {
		vars := map[*types.Var]bool{sig.Params().At(i): true}
		taint(info, body, vars)
		if mentions(info, key, vars) {
			return i
		}
	}
	return -1
}
