package locate

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// reflectiveConditions are the calls on the reconcile path that hand the
// primary object's Status as an empty interface value to a function (a
// library's or the tree's own) whose package uses reflection (the whole
// object handed so is read far more often, by converters and encoders): such a function may set a
// condition on whatever it is handed (a condition type with a SetError
// method that finds the Status's Conditions by reflection), which the
// search of condition stores does not follow. Each is said as a place
// where a condition may be set.
func (a *analysis) reflectiveConditions(kind *types.Named, reach *callgraph.Reach) []string {
	if kind == nil {
		return nil
	}
	var handed []types.Type
	if st, ok := kind.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); f.Name() == "Status" && mayHoldConditions(f.Type(), 0) {
				handed = append(handed, f.Type(), types.NewPointer(f.Type()))
			}
		}
	}
	var out []string
	for _, fn := range reach.Funcs() {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(fn) {
			if c.known || c.fn == nil || c.fn.Pkg() == nil || !importsReflect(c.fn.Pkg()) {
				continue
			}
			sig, ok := c.fn.Type().(*types.Signature)
			if !ok {
				continue
			}
			for i := 0; i < sig.Params().Len() && i < len(c.expr.Args); i++ {
				p, ok := sig.Params().At(i).Type().Underlying().(*types.Interface)
				if !ok || !p.Empty() {
					continue
				}
				t := info.TypeOf(c.expr.Args[i])
				for _, h := range handed {
					if t != nil && types.Identical(t, h) {
						s := a.site(c.expr.Lparen)
						out = append(out, fmt.Sprintf("%s:%d (%s is handed the %s as an interface value, in a package that uses reflection: what it sets is not followed)", s.File, s.Line, c.fn.FullName(), shortType(t)))
					}
				}
			}
		}
	}
	return out
}

// importsReflect reports whether a package imports reflect.
func importsReflect(p *types.Package) bool {
	for _, imp := range p.Imports() {
		if imp.Path() == "reflect" {
			return true
		}
	}
	return false
}

// mayHoldConditions reports whether a status type may hold conditions: a
// field named Conditions, or a list or map of structs with a Type field,
// at some depth of its structs; an interface may hold anything. A status
// that holds none gets none, whatever a reflective function handed it
// does.
func mayHoldConditions(t types.Type, depth int) bool {
	if depth > 4 {
		return true
	}
	if n, ok := deref(t).(*types.Named); ok && n.Obj().Pkg() != nil && !strings.Contains(strings.Split(n.Obj().Pkg().Path(), "/")[0], ".") {
		return false // the standard library's (a time.Time)
	}
	var elem types.Type
	switch u := deref(t).Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if f.Exported() && (f.Name() == "Conditions" || mayHoldConditions(f.Type(), depth+1)) {
				return true // (an unexported field is no JSON field)
			}
		}
		return false
	case *types.Interface:
		return true
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	case *types.Map:
		elem = u.Elem()
	default:
		return false
	}
	if st, ok := deref(elem).Underlying().(*types.Struct); ok {
		for i := range st.NumFields() {
			if st.Field(i).Name() == "Type" {
				return true
			}
		}
	}
	return mayHoldConditions(elem, depth+1)
}
