package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// varInit is a package-level variable with the expression that initialises
// it, and the type information of its file.
type varInit struct {
	v    *types.Var
	expr ast.Expr
	info *types.Info
}

// foldFormatted adds to the fixed variables those never written whose
// initialiser formats constants (var Finalizer = fmt.Sprintf("%s/finalizer",
// GroupVersion.Group)): a formatting function of the knowledge table, with
// a constant format and arguments that are constants, fixed variables or
// constant fields of a package variable's composite literal never written.
// Their value is the formatted text.
func (a *analysis) foldFormatted(inits []varInit, written map[*types.Var]bool) {
	byVar := map[*types.Var]varInit{}
	for _, in := range inits {
		byVar[in.v] = in
	}
	for _, in := range inits {
		if written[in.v] {
			continue
		}
		if s, ok := a.formatted(in.info, in.expr, byVar, written); ok {
			a.fixedVars[in.v] = fixedInit{value: constant.MakeString(s), expr: in.expr, formatted: true}
		}
	}
}

// formatted is the text a call of a formatting function with a constant
// format and constant arguments makes, when it is one.
func (a *analysis) formatted(info *types.Info, e ast.Expr, byVar map[*types.Var]varInit, written map[*types.Var]bool) (string, bool) {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	fn, ok := typeutil.Callee(info, ce).(*types.Func)
	if !ok {
		return "", false
	}
	fact, known := knowledge[funcKey(fn)]
	if !known || fact.Role != RoleFormat || fact.Arg != 0 || len(ce.Args) == 0 || ce.Ellipsis.IsValid() {
		return "", false
	}
	format, ok := constString(info, ce.Args[0])
	if !ok {
		return "", false
	}
	var args []any
	for _, arg := range ce.Args[1:] {
		s, ok := constString(info, arg)
		if !ok {
			s, ok = a.literalField(info, arg, byVar, written)
		}
		if !ok {
			return "", false
		}
		args = append(args, s)
	}
	out := fmt.Sprintf(format, args...)
	if strings.Contains(out, "%!") {
		// A verb the arguments do not fit: not what the program makes.
		return "", false
	}
	return out, true
}

// constString is the string constant e is, or a fixed variable holds.
func constString(info *types.Info, e ast.Expr) (string, bool) {
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	return "", false
}

// literalField is the string constant a field of a package variable holds
// when the variable is initialised with a composite literal that sets the
// field to a constant and is never written (GroupVersion.Group).
func (a *analysis) literalField(info *types.Info, e ast.Expr, byVar map[*types.Var]varInit, written map[*types.Var]bool) (string, bool) {
	if s, _, ok := a.fixedString(info, e); ok {
		return s, true
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	var base *ast.Ident
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.Ident:
		base = x
	case *ast.SelectorExpr:
		base = x.Sel
	default:
		return "", false
	}
	v, ok := info.Uses[base].(*types.Var)
	in, declared := byVar[v]
	if !ok || !declared || written[v] {
		return "", false
	}
	lit, ok := ast.Unparen(in.expr).(*ast.CompositeLit)
	if !ok {
		return "", false
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if key, ok := kv.Key.(*ast.Ident); ok && in.info.Uses[key] == info.Uses[sel.Sel] {
			return constString(in.info, kv.Value)
		}
	}
	return "", false
}
