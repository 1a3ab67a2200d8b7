package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// flagVar is a package-level variable of the tree that a command-line flag
// sets: its address handed to a flag package's registration
// (flag.DurationVar(&v, "name", …)), or its initialiser a registration
// returning the flag's pointer (v = flag.Duration("name", …)), and nothing
// else in the tree's own code writing it or taking its address.
type flagVar struct {
	// call is the registration.
	call *ast.CallExpr
	// name is the flag's name ("" when it is not a constant), def the
	// default's expression (nil when there is none).
	name string
	def  ast.Expr
}

// flagPackages are the packages whose registrations make command-line
// flags.
var flagPackages = map[string]bool{"flag": true, "github.com/spf13/pflag": true}

// flagRegistration reports whether call registers a command-line flag,
// and whether it is handed the variable's address (XxxVar, XxxVarP) rather
// than returning a pointer (Xxx, XxxP). The registration may be handed on
// through the tree's functions that pass it back (via(flag.DurationVar)(…)).
func (a *analysis) flagRegistration(info *types.Info, call *ast.CallExpr) (isFlag, byAddress bool) {
	fn, ok := typeutil.Callee(info, &ast.CallExpr{Fun: a.passedFun(info, call.Fun)}).(*types.Func)
	if !ok || fn.Pkg() == nil || !flagPackages[fn.Pkg().Path()] {
		return false, false
	}
	name := strings.TrimSuffix(fn.Name(), "P")
	if !ast.IsExported(name) || name == "Parse" || name == "Set" || name == "Lookup" || strings.HasPrefix(name, "Visit") {
		return false, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Params().Len() < 2 {
		return false, false
	}
	if strings.HasSuffix(name, "Var") && name != "Var" {
		return true, true
	}
	if r := sig.Results(); r.Len() == 1 {
		if _, ptr := r.At(0).Type().(*types.Pointer); ptr {
			return true, false
		}
	}
	return false, false
}

// flagVarsIndex indexes, on first use, the package-level variables of the
// tree a command-line flag sets and nothing else writes.
func (a *analysis) flagVarsIndex() map[*types.Var]flagVar {
	if a.flagVars != nil {
		return a.flagVars
	}
	a.flagVars = map[*types.Var]flagVar{}
	pkgVar := func(info *types.Info, e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			if sel, isSel := ast.Unparen(e).(*ast.SelectorExpr); isSel {
				id = sel.Sel
			}
		}
		if id == nil {
			return nil
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			v, ok = info.Defs[id].(*types.Var)
		}
		if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
			return nil
		}
		return v
	}
	registered := map[ast.Node]bool{} // the &v handed to a registration
	written := map[*types.Var]int{}
	register := func(v *types.Var, call *ast.CallExpr, info *types.Info, nameArg, defArg int) {
		fv := flagVar{call: call}
		if nameArg < len(call.Args) {
			fv.name, _ = stringValue(info, call.Args[nameArg])
		}
		if defArg < len(call.Args) {
			fv.def = call.Args[defArg]
		}
		a.flagVars[v] = fv
		written[v]++
	}
	for _, f := range a.files {
		ast.Inspect(f.file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, name := range x.Names {
					if i >= len(x.Values) || len(x.Values) != len(x.Names) {
						break
					}
					call, ok := ast.Unparen(x.Values[i]).(*ast.CallExpr)
					if !ok {
						continue
					}
					if isFlag, byAddr := a.flagRegistration(f.info, call); isFlag && !byAddr {
						if v := pkgVar(f.info, name); v != nil {
							register(v, call, f.info, 0, 1)
						}
					}
				}
			case *ast.CallExpr:
				isFlag, byAddr := a.flagRegistration(f.info, x)
				if !isFlag || !byAddr || len(x.Args) == 0 {
					return true
				}
				u, ok := ast.Unparen(x.Args[0]).(*ast.UnaryExpr)
				if !ok || u.Op != token.AND {
					return true
				}
				if v := pkgVar(f.info, u.X); v != nil {
					registered[u] = true
					register(v, x, f.info, 1, 2)
				}
			}
			return true
		})
	}
	for _, f := range a.files {
		eachWrite(f.file, func(e ast.Expr, addr *ast.UnaryExpr) {
			if addr != nil && registered[addr] {
				return
			}
			if v := pkgVar(f.info, e); v != nil {
				written[v]++
			}
		})
	}
	for v := range a.flagVars {
		if written[v] != 1 {
			delete(a.flagVars, v)
		}
	}
	return a.flagVars
}
