package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Writes a library makes inside a function the knowledge table does not
// name (a patch helper the tree holds, patchHelper.Patch(ctx, obj)): the
// function's body is read on demand (bodies.go), with those of the
// library's functions it calls in turn, when it holds a client that can
// write (writerTypes), and every write the table names found there is a
// write of the tree's call.

// libWrite is a write a library's function makes, in its own body or in
// one of the library functions it calls: where, its verb, whether it is of
// the status, and whether every call of the function makes it (it stands
// at the top level of each body on the way, after no return).
type libWrite struct {
	pos    token.Pos
	verb   string
	status bool
	always bool
}

// libraryWrites are the writes a call of the tree's makes inside the
// library's function it calls, when the table does not name it; nil for
// anything else.
func (a *analysis) libraryWrites(c call) []libWrite {
	if c.known || c.fn == nil || len(c.own) > 0 || a.fileOwn(c.fn.Pos()) {
		return nil
	}
	ws, _ := a.libWritesOf(c.fn.Origin(), map[*types.Func]bool{})
	return ws
}

// libWritesOf are the writes a library's function makes, read once; open
// are the functions whose reading is under way. complete is false when a
// call back into one of them was cut short: that result is not kept, so
// that a later call of the function itself reads it whole.
func (a *analysis) libWritesOf(fn *types.Func, open map[*types.Func]bool) (ws []libWrite, complete bool) {
	if ws, ok := a.libWrites[fn]; ok {
		return ws, true
	}
	if open[fn] {
		return nil, false
	}
	if !holdsWriter(fn) {
		a.libWrites[fn] = nil
		return nil, true
	}
	b := a.depBody(fn)
	if b == nil {
		a.libWrites[fn] = nil
		return nil, true
	}
	open[fn] = true
	defer delete(open, fn)
	complete = true
	a.bodyCalls(b, func(c call) {
		top := topLevelCall(b.decl.Body, c.expr)
		if w, ok := a.writeOf(b.info, c); ok {
			ws = append(ws, libWrite{pos: c.expr.Lparen, verb: w.verb, status: w.status, always: top})
			return
		}
		if c.known || c.fn == nil || a.fileOwn(c.fn.Pos()) {
			return
		}
		inner, whole := a.libWritesOf(c.fn.Origin(), open)
		complete = complete && whole
		for _, w := range inner {
			w.always = w.always && top
			ws = append(ws, w)
		}
	})
	if complete {
		a.libWrites[fn] = ws
	}
	return ws, complete
}

// holdsWriter reports whether a function is handed a client that can
// write: a parameter of one of writerTypes, or a receiver whose struct
// holds one in a field (embedded fields included).
func holdsWriter(fn *types.Func) bool {
	if takesParamOf(fn, writerTypes) {
		return true
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	st, ok := deref(sig.Recv().Type()).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if writerTypes[typeKey(st.Field(i).Type())] {
			return true
		}
	}
	return false
}

// takesParamOf reports whether a function takes a parameter of one of the
// named types (typeKey).
func takesParamOf(fn *types.Func, named map[string]bool) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return false
	}
	for i := range sig.Params().Len() {
		if named[typeKey(sig.Params().At(i).Type())] {
			return true
		}
	}
	return false
}

// topLevelCall reports whether a call runs on every run of the body that
// holds it: its statement is one of the body's own, the call in none of
// the blocks that statement holds (an if's branches, a loop's or a
// switch's body, a closure), and no statement before it holds a return.
func topLevelCall(body *ast.BlockStmt, e *ast.CallExpr) bool {
	for _, st := range body.List {
		if st.Pos() <= e.Pos() && e.End() <= st.End() {
			nested := false
			ast.Inspect(st, func(n ast.Node) bool {
				switch b := n.(type) {
				case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
					nested = nested || b.Pos() <= e.Pos() && e.End() <= b.End()
				}
				return !nested
			})
			return !nested
		}
		returns := false
		ast.Inspect(st, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.ReturnStmt:
				returns = true
			case *ast.FuncLit:
				return false
			}
			return !returns
		})
		if returns {
			return false
		}
	}
	return false
}

// libraryWriteDesc is the verb, target and status of a call's library
// writes: the verb they share ("write" when they differ), the object the
// call is handed, of the status when every one is.
func libraryWriteDesc(info *types.Info, c call, ws []libWrite) writeDesc {
	verb, status := ws[0].verb, true
	for _, w := range ws {
		if w.verb != verb {
			verb = "write"
		}
		status = status && w.status
	}
	target := "through " + funcKey(c.fn)
	for _, arg := range c.expr.Args {
		if t := info.TypeOf(arg); t != nil && IsObjectPointer(t) {
			target = typeName(t)
			break
		}
	}
	if status {
		target += " status"
	}
	return writeDesc{verb: verb, target: target, status: status}
}

// libraryNote names the library function a write is made in and where.
func (a *analysis) libraryNote(c call, ws []libWrite) string {
	var at []string
	for _, w := range ws {
		if s := fileLine(a.site(w.pos)); !slices.Contains(at, s) {
			at = append(at, s)
		}
	}
	return "made inside the library's " + funcKey(c.fn) + ", at " + strings.Join(at, ", ")
}
