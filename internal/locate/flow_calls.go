package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// The engine's calls: the bodies a call may run, how its arguments line
// up with their parameters, and the values their returns give.

// results follows result index of a call into the returns of the bodies it
// may run, each parameter they depend on replaced by the call's argument.
func (q *query) results(b *flowBody, ce *ast.CallExpr, index int, path []string, depth int) []flowVal {
	// A function returning its own call whole (return f(…), recursion)
	// comes back here without a step through values: the same bound.
	q.steps++
	if depth > maxFlowDepth || q.steps > maxFlowSteps {
		return []flowVal{{b: b, e: ce, param: -1, path: path, result: index, end: ce.Lparen, why: "followed too far"}}
	}
	if recv := copiedReceiver(b.info, ce); recv != nil && index == 0 {
		// obj.DeepCopyObject() through an interface: what obj holds,
		// not every implementation's copy.
		return q.values(b, recv, path, depth+1)
	}
	if arg := jitteredResult(q.fl.a, b.info, ce); arg != nil && index == 0 {
		// A library's jitter of a result: the result it is handed, its
		// interval jittered.
		return q.values(b, arg, path, depth+1)
	}
	callees := q.fl.callees(b, ce)
	if len(callees) == 0 {
		return []flowVal{{b: b, e: ce, param: -1, path: path, result: index, end: ce.Lparen, why: "the result of a call that is not followed"}}
	}
	var out []flowVal
	for _, cb := range callees {
		args := q.fl.a.callArgs(b.info, ce, cb)
		variadic := variadicAt(cb, ce, args)
		for _, r := range cb.returnValues(index) {
			var vals []flowVal
			if ce, ok := ast.Unparen(r.e).(*ast.CallExpr); ok && r.index >= 0 {
				vals = q.results(cb, ce, r.index, path, depth+1)
			} else if r.index < 0 {
				vals = q.values(cb, r.e, path, depth+1)
			}
			for _, v := range vals {
				if v.param < 0 || v.b != cb {
					out = append(out, v)
					continue
				}
				if v.param == variadic {
					out = append(out, q.variadicValues(b, ce, args[min(variadic, len(args)):], v.path, depth+1)...)
					continue
				}
				if v.param >= len(args) {
					out = append(out, flowVal{b: b, e: ce, param: -1, result: index, end: ce.Lparen, why: "a parameter the call does not line up"})
					continue
				}
				out = append(out, q.values(b, args[v.param], v.path, depth+1)...)
			}
		}
	}
	return out
}

// variadicValues is what the path below a callee's variadic parameter
// holds when the call hands it separate arguments (f(a, b), not f(s...)):
// the slice is made at the call, each of its elements one of the
// arguments; no argument leaves it empty.
func (q *query) variadicValues(b *flowBody, ce *ast.CallExpr, args []ast.Expr, path []string, depth int) []flowVal {
	if len(path) == 0 || path[0] != elem {
		return []flowVal{{b: b, e: ce, param: -1, end: ce.Lparen, why: "a slice of the call's arguments"}}
	}
	if len(args) == 0 {
		return []flowVal{{b: b, zero: true, param: -1}}
	}
	var out []flowVal
	for _, arg := range args {
		out = append(out, q.values(b, arg, path[1:], depth)...)
	}
	return out
}

// retValue is one value a body's returns give a result: an expression,
// or result index of a call returned whole (return f(), f giving several
// results; index >= 0).
type retValue struct {
	e     ast.Expr
	index int
}

// returnValues are the values the body's returns give result index: a
// named result's (a bare return), or the value returned.
func (b *flowBody) returnValues(index int) []retValue {
	var out []retValue
	named := b.namedResults()
	n := 0
	if ft := b.funcType(); ft.Results != nil {
		n = ft.Results.NumFields()
	}
	returnsOf(b.block(), func(r *ast.ReturnStmt) {
		switch {
		case len(r.Results) == 0 && index < len(named):
			out = append(out, retValue{named[index], -1})
		case len(r.Results) == 1 && n > 1:
			out = append(out, retValue{r.Results[0], index})
		case index < len(r.Results):
			out = append(out, retValue{r.Results[index], -1})
		}
	})
	return out
}

// namedResults are the names of the body's results.
func (b *flowBody) namedResults() []*ast.Ident {
	var out []*ast.Ident
	ft := b.funcType()
	if ft.Results == nil {
		return nil
	}
	for _, f := range ft.Results.List {
		out = append(out, f.Names...)
	}
	return out
}

// funcType is the body's signature: the closure's, or the declaration's.
func (b *flowBody) funcType() *ast.FuncType {
	if b.lit != nil {
		return b.lit.Type
	}
	return b.decl.Type
}

// block is the body's statements.
func (b *flowBody) block() *ast.BlockStmt {
	if b.lit != nil {
		return b.lit.Body
	}
	return b.decl.Body
}

// closureBody is the body of an own closure, read with the declaration
// that holds it (its variables are that declaration's); nil when it has
// none.
func (a *analysis) closureBody(sf *ssa.Function) *flowBody {
	lit, ok := sf.Syntax().(*ast.FuncLit)
	parent := a.flowBodyOf(sf)
	if !ok || parent == nil {
		return nil
	}
	var params []*types.Var
	for _, f := range lit.Type.Params.List {
		if len(f.Names) == 0 {
			params = append(params, nil)
		}
		for _, id := range f.Names {
			v, _ := parent.info.Defs[id].(*types.Var)
			params = append(params, v)
		}
	}
	return &flowBody{decl: parent.decl, lit: lit, info: parent.info, params: params, partial: parent.partial, dep: parent.dep, locals: parent.local()}
}

// flowBodyOf is the body the engine reads for an own function: its
// declaration's (a closure is read with the function that makes it).
func (a *analysis) flowBodyOf(fn *ssa.Function) *flowBody {
	top := fn
	for top.Parent() != nil {
		top = top.Parent()
	}
	obj, ok := top.Object().(*types.Func)
	if !ok {
		return a.varLitBody(fn)
	}
	return a.ownBody(obj.Origin())
}

// returnsOf visits the returns of a body, not those of its closures.
func returnsOf(body *ast.BlockStmt, visit func(*ast.ReturnStmt)) {
	if body == nil {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch r := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			visit(r)
		}
		return true
	})
}

// callees are the bodies a call may run: the tree's own functions (the
// static callee, or those the call graph gives a dynamic call), or a
// dependency's function the engine is told to read. A library function of
// the knowledge table is never entered.
func (fl *flowEngine) callees(b *flowBody, ce *ast.CallExpr) []*flowBody {
	c := fl.a.makeCall(b.info, ce, nil)
	if c.known {
		return nil
	}
	if c.fn != nil && !isInterfaceMethod(c.fn) {
		if ob := fl.a.ownBody(c.fn.Origin()); ob != nil {
			return []*flowBody{ob}
		}
		if fl.a.fileOwn(c.fn.Pos()) {
			return nil
		}
		if fl.follow != nil && fl.follow(c.fn) {
			if db := fl.a.depBody(c.fn.Origin()); db != nil {
				return []*flowBody{db}
			}
		}
		return nil
	}
	var out []*flowBody
	for _, sf := range c.own {
		if _, lit := sf.Syntax().(*ast.FuncLit); lit {
			if cb := fl.a.closureBody(sf); cb != nil {
				out = append(out, cb)
			}
			continue
		}
		if obj, ok := sf.Object().(*types.Func); ok {
			if ob := fl.a.ownBody(obj.Origin()); ob != nil {
				out = append(out, ob)
			}
		}
	}
	return out
}

// isInterfaceMethod reports whether fn is a method of an interface: a
// call of it runs what the call graph says.
func isInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// callArgs lines a call's arguments up with a callee's parameters: the
// receiver of a method call first (the value converted to an interface at
// the call, for I(x).M(…)).
func (a *analysis) callArgs(info *types.Info, e *ast.CallExpr, callee *flowBody) []ast.Expr {
	hasRecv := callee.lit == nil && callee.decl.Recv != nil
	if !hasRecv {
		return e.Args
	}
	switch t := a.target(info, e.Fun, 0); {
	case t.recv != nil:
		return append([]ast.Expr{t.recv}, e.Args...)
	case t.methodExpr:
		return e.Args
	}
	return nil
}

// jitteredResult is the result a call of a library's jitter of a
// reconcile result hands back (its argument), or nil.
func jitteredResult(a *analysis, info *types.Info, ce *ast.CallExpr) ast.Expr {
	c := a.makeCall(info, ce, nil)
	if !c.known || c.fact.Role != RoleJitterResult || c.fact.Arg >= len(ce.Args) {
		return nil
	}
	return ce.Args[c.fact.Arg]
}

// copiedReceiver is the receiver of a call of an interface method that the
// knowledge table says returns a copy of it, or nil.
func copiedReceiver(info *types.Info, ce *ast.CallExpr) ast.Expr {
	sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	fn, ok := typeutil.Callee(info, ce).(*types.Func)
	if !ok || !isInterfaceMethod(fn) || knowledge[funcKey(fn)].Role != RoleCopyOfReceiver {
		return nil
	}
	return sel.X
}
