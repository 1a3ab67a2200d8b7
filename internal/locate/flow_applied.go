package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Functional options: a body makes a struct and hands it, by pointer, to
// function values it is given (for _, o := range opts { o(cfg) }); each
// option is a closure a constructor returns (WithX(v) returns func(c
// *Config) { c.x = v }). What a field of the struct holds after that is
// what the options store through their parameter: the engine follows the
// options to their closures, and the path step appliedStep(i) asks of a
// function value what it stores below its parameter i when it is called.

// appliedPrefix starts the path step of a function value called with the
// value at argument i (no field is named so).
const appliedPrefix = "(applied "

// appliedStep is the path step of a function value called with the
// queried value as its argument i.
func appliedStep(i int) string { return appliedPrefix + strconv.Itoa(i) + ")" }

// appliedArg is the argument index of an applied step, or -1 when the step
// is not one.
func appliedArg(step string) int {
	rest, ok := strings.CutPrefix(step, appliedPrefix)
	if !ok {
		return -1
	}
	i, err := strconv.Atoi(strings.TrimSuffix(rest, ")"))
	if err != nil {
		return -1
	}
	return i
}

// hasAppliedStep reports whether a path asks what a function value stores
// when it is called.
func hasAppliedStep(path []string) bool {
	for _, step := range path {
		if appliedArg(step) >= 0 {
			return true
		}
	}
	return false
}

// handing is a call of a body that is handed a local variable by pointer:
// the call, and the argument the variable is (-1: the receiver of a
// method).
type handing struct {
	call *ast.CallExpr
	arg  int
}

// handingCalls are the calls of b handed v by pointer: as the receiver of
// a method (v itself, or its address), or as an argument.
func handingCalls(b *flowBody, v *types.Var) []handing {
	return handings(b, v, false)
}

// handings are the calls of b handed v so that they may change what it
// holds: by pointer, or, when shared (a map, whose contents every copy
// shares), in any way, as any method's receiver or as an argument.
func handings(b *flowBody, v *types.Var, shared bool) []handing {
	names := func(e ast.Expr) bool {
		id, ok := stripAddr(ast.Unparen(e)).(*ast.Ident)
		return ok && varOf(b.info, id) == v
	}
	_, isPtr := v.Type().Underlying().(*types.Pointer)
	var out []handing
	ast.Inspect(b.block(), func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && names(sel.X) {
			if s := b.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				if sig, ok := s.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptrRecv := sig.Recv().Type().Underlying().(*types.Pointer); ptrRecv || shared {
						out = append(out, handing{call: c, arg: -1})
					}
				}
			}
		}
		for i, arg := range c.Args {
			if _, addr := ast.Unparen(arg).(*ast.UnaryExpr); names(arg) && (isPtr || addr || shared) {
				out = append(out, handing{call: c, arg: i})
			}
		}
		return true
	})
	return out
}

// storedByOptions is what the path below local v holds as stored by the
// function values v is handed to, when every call handed v is one (a call
// of a named function or a method may store anything: ok is then false).
// An option that is a parameter of b is the callers' (its path asks what
// the option stores when applied); a closure is read for its stores.
func (q *query) storedByOptions(b *flowBody, v *types.Var, path []string, depth int) (out []flowVal, ok bool) {
	calls := handingCalls(b, v)
	if len(calls) == 0 {
		return nil, false
	}
	for _, h := range calls {
		if h.arg < 0 || namedFunc(b.info, ast.Unparen(h.call.Fun)) != nil {
			return nil, false
		}
		if t := b.info.TypeOf(h.call.Fun); t == nil || !isSignature(t) {
			return nil, false
		}
	}
	for _, h := range calls {
		for _, f := range q.values(b, h.call.Fun, nil, depth+1) {
			switch lit, _ := ast.Unparen(f.e).(*ast.FuncLit); {
			case f.param >= 0 && f.b == b:
				f.path = append(append(f.path, appliedStep(h.arg)), path...)
				out = append(out, f)
			case lit != nil && f.b != nil:
				out = append(out, q.applied(f.b, lit, h.arg, path, depth+1)...)
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// applied is what a closure stores below its parameter i when it is
// called: the values of its stores on the path (read in the body that
// holds it, whose parameters the closure captures); none when it stores
// nothing there. A closure handing the parameter on to a call may store
// through it: the trail ends there.
func (q *query) applied(b *flowBody, lit *ast.FuncLit, i int, path []string, depth int) []flowVal {
	p := litParam(b.info, lit, i)
	if p == nil || len(path) == 0 {
		return []flowVal{{b: b, e: lit, param: -1, end: lit.Pos(), why: "a function value whose effect is not followed"}}
	}
	litBody := &flowBody{decl: b.decl, lit: lit, info: b.info, partial: b.partial, dep: b.dep, locals: b.local()}
	if len(handingCalls(litBody, p)) > 0 {
		return []flowVal{{b: b, e: lit, param: -1, end: lit.Pos(), why: "an option that hands its parameter on to a call"}}
	}
	var out []flowVal
	for _, st := range b.local().stores[p] {
		if n := len(st.path); n <= len(path) && strings.Join(st.path, ".") == strings.Join(path[:n], ".") {
			out = append(out, q.values(b, st.value, path[n:], depth+1)...)
		}
	}
	return out
}

// isSignature reports whether t is a function type.
func isSignature(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// litParam is parameter i of a closure, or nil.
func litParam(info *types.Info, lit *ast.FuncLit, i int) *types.Var {
	n := 0
	for _, f := range lit.Type.Params.List {
		for _, id := range f.Names {
			if n == i {
				v, _ := info.Defs[id].(*types.Var)
				return v
			}
			n++
		}
		if len(f.Names) == 0 {
			if n == i {
				return nil
			}
			n++
		}
	}
	return nil
}

// unreferenced reports whether the declaration holding pos is a function
// (not a method) that none of the tree's code calls or takes as a value:
// what it does never runs in the tree's program (an option only its tests
// use).
func (a *analysis) unreferenced(pos token.Pos) bool {
	var fd *ast.FuncDecl
	for _, n := range a.path(pos, pos) {
		if d, ok := n.(*ast.FuncDecl); ok {
			fd = d
		}
	}
	if fd == nil || fd.Recv != nil || fd.Name.Name == "init" || fd.Name.Name == "main" {
		return false
	}
	obj, ok := a.infoAt(fd.Pos()).Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	if a.referenced == nil {
		a.referenced = map[*types.Func]bool{}
		read := map[*types.Info]bool{}
		for _, fi := range a.files {
			if read[fi.info] {
				continue
			}
			read[fi.info] = true
			for _, o := range fi.info.Uses {
				if fn, ok := o.(*types.Func); ok {
					a.referenced[fn.Origin()] = true
				}
			}
		}
	}
	return !a.referenced[obj]
}
