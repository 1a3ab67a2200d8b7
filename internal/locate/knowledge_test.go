package locate

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/ctrlcmp/ctrlcmp/internal/load"
)

// knowledgeTree loads testdata/knowledge, a module that imports every
// library package the knowledge table names at the versions of
// knowledgeChecked, from the module proxy.
func knowledgeTree(t *testing.T) *load.Tree {
	t.Helper()
	knowledgeOnce.Do(func() {
		knowledgeLoaded, knowledgeErr = load.Load(context.Background(), filepath.Join("testdata", "knowledge"), nil, nil)
	})
	if knowledgeErr != nil {
		t.Fatalf("load testdata/knowledge: %v", knowledgeErr)
	}
	return knowledgeLoaded
}

var (
	knowledgeOnce   sync.Once
	knowledgeLoaded *load.Tree
	knowledgeErr    error
)

// resolved is a knowledge key looked up in the loaded libraries.
type resolved struct {
	fn     *types.Func
	module *packages.Module // nil for the standard library
}

// resolveKey finds the function or method a key names: pkg.F, (pkg.T).M or
// (*pkg.T).M, the method looked up in T's method set (promoted methods
// included, so that a key naming the embedding type resolves to the
// declaring type's method, whose key differs).
func resolveKey(tree *load.Tree, key string) (resolved, string) {
	var pkgPath, typeName, name string
	star := false
	if strings.HasPrefix(key, "(") {
		i := strings.Index(key, ").")
		if i < 0 {
			return resolved{}, "not a key: (pkg.T).M has no ')."
		}
		recv := key[1:i]
		name = key[i+2:]
		if strings.HasPrefix(recv, "*") {
			star, recv = true, recv[1:]
		}
		pkgPath, typeName = splitQualified(recv)
	} else {
		pkgPath, name = splitQualified(key)
	}
	pkg := tree.Types(pkgPath)
	if pkg == nil {
		return resolved{}, "package " + pkgPath + " is not loaded: import it in testdata/knowledge/libs.go"
	}
	r := resolved{module: moduleOf(tree, pkgPath)}
	if typeName == "" {
		fn, ok := pkg.Scope().Lookup(name).(*types.Func)
		if !ok {
			return r, pkgPath + " declares no function " + name
		}
		r.fn = fn
		return r, ""
	}
	tn, ok := pkg.Scope().Lookup(typeName).(*types.TypeName)
	if !ok {
		return r, pkgPath + " declares no type " + typeName
	}
	var recv types.Type = tn.Type()
	if star {
		recv = types.NewPointer(recv)
	}
	obj, _, _ := types.LookupFieldOrMethod(recv, false, pkg, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return r, typeName + " has no method " + name
	}
	r.fn = fn
	return r, ""
}

// moduleOf is the module of a loaded package (nil: the standard library).
func moduleOf(tree *load.Tree, path string) *packages.Module {
	for _, p := range tree.All {
		if p.PkgPath == path {
			return p.Module
		}
	}
	return nil
}

// TestKnowledgeResolves resolves every entry of the knowledge table against
// the library versions it names (knowledgeChecked, the versions the
// fixtures pin): the key names a function or method whose own key is the
// same (a key that a call can never produce is dead), its argument indexes
// fit the signature, the constants it implies exist, and a library's drift
// comparison is called where the entry says. An entry marked Before must
// not resolve at the checked version: it holds for older libraries only.
func TestKnowledgeResolves(t *testing.T) {
	tree := knowledgeTree(t)
	used := map[string]bool{}
	for key, f := range knowledge {
		r, problem := resolveKey(tree, key)
		if r.module != nil {
			used[r.module.Path] = true
			if want := knowledgeChecked[r.module.Path]; want != r.module.Version {
				t.Errorf("%s: module %s loaded at %s, but knowledgeChecked names %q", key, r.module.Path, r.module.Version, want)
			}
		}
		if f.Before != "" {
			if problem == "" && funcKey(r.fn) == key && !declaredByGeneric(r.fn) {
				t.Errorf("%s: marked Before %s, but it names a declaration at the version checked: drop the mark", key, f.Before)
			}
			continue
		}
		if problem != "" {
			t.Errorf("%s: %s", key, problem)
			continue
		}
		if got := funcKey(r.fn); got != key {
			t.Errorf("%s: the method is declared as %s, so no call ever has this key; key it there (or mark it Before the version it became an alias)", key, got)
			continue
		}
		checkSignature(t, tree, key, f, r.fn.Type().(*types.Signature))
		if f.Drift != nil {
			checkDrift(t, tree, key, f.Drift, r)
		}
		if f.Loop != nil {
			checkLoop(t, tree, key, f.Loop, r)
		}
		if f.Adapter != nil {
			checkAdapter(t, tree, key, f.Adapter, r)
		}
	}
	for _, f := range knowledge {
		if f.Implied != "" {
			path, _ := splitQualified(f.Implied)
			if m := moduleOf(tree, path); m != nil {
				used[m.Path] = true
			}
		}
	}
	for m := range knowledgeChecked {
		if !used[m] {
			t.Errorf("knowledgeChecked names %s, which no entry keys on", m)
		}
	}
}

// checkSignature checks that a fact's indexes fit the function's
// parameters, and that the argument a role is about has the type the
// locators expect of it.
func checkSignature(t *testing.T, tree *load.Tree, key string, f Fact, sig *types.Signature) {
	t.Helper()
	n := sig.Params().Len()
	for _, ix := range []struct {
		name string
		i    int
	}{{"Obj", f.Obj}, {"Key", f.Key}, {"Arg", f.Arg}} {
		if ix.i < -1 || ix.i >= n {
			t.Errorf("%s: %s = %d, but the function takes %d parameters", key, ix.name, ix.i, n)
		}
	}
	if f.Role == RoleRead && f.Obj < 0 && sig.Results().Len() == 0 {
		t.Errorf("%s: a read whose object is its first result returns nothing", key)
	}
	if f.Arg < 0 || f.Arg >= n {
		return
	}
	arg := sig.Params().At(f.Arg).Type()
	switch {
	case f.ArgIsOptions:
		st, ok := deref(arg).Underlying().(*types.Struct)
		if !ok || !slices.ContainsFunc(fieldsOf(st), func(v *types.Var) bool { return v.Name() == optionsReconciler }) {
			t.Errorf("%s: Arg %d is %s, not an options struct with a %s field", key, f.Arg, arg, optionsReconciler)
		}
	case f.Role == RoleQueueAddAfter, f.Role == RoleInformerFactory, f.Role == RoleJitter:
		if typeKey(arg) != "time.Duration" {
			t.Errorf("%s: Arg %d is %s, not the time.Duration the role is about", key, f.Arg, arg)
		}
	case f.Role == RoleSetFinalizers:
		if s, ok := arg.Underlying().(*types.Slice); !ok || !isString(s.Elem()) {
			t.Errorf("%s: Arg %d is %s, not the []string of finalizers", key, f.Arg, arg)
		}
	case f.Role == RoleFinalizerAdd, f.Role == RoleFinalizerRemove, f.Role == RoleFinalizerHas:
		if !isString(arg) {
			t.Errorf("%s: Arg %d is %s, not the finalizer's string", key, f.Arg, arg)
		}
	}
	if f.Implied != "" {
		path, name := splitQualified(f.Implied)
		if p := tree.Types(path); p == nil || p.Scope().Lookup(name) == nil {
			t.Errorf("%s: the implied constant %s does not exist", key, f.Implied)
		}
	}
}

func fieldsOf(st *types.Struct) []*types.Var {
	var out []*types.Var
	for i := 0; i < st.NumFields(); i++ {
		out = append(out, st.Field(i))
	}
	return out
}

// checkAdapter checks that the adapter method an entry names calls, at the
// version checked, the read it names.
func checkAdapter(t *testing.T, tree *load.Tree, key string, k *AdapterKnowledge, r resolved) {
	t.Helper()
	var dir string
	for _, p := range tree.All {
		if p.PkgPath == r.fn.Pkg().Path() && len(p.GoFiles) > 0 {
			dir = filepath.Dir(p.GoFiles[0])
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, k.File), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Errorf("%s: adapter: %v", key, err)
		return
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Name.Name != k.Method || recvTypeName(fd) != k.Type {
			continue
		}
		read := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == k.Read {
					read = true
				}
			}
			return true
		})
		if !read {
			t.Errorf("%s: adapter: %s.%s does not call %s at %s", key, k.Type, k.Method, k.Read, r.module.Version)
		}
		return
	}
	t.Errorf("%s: adapter: %s declares no method %s.%s at %s", key, k.File, k.Type, k.Method, r.module.Version)
}

// checkDrift checks that the library function a drift entry names calls,
// at the version checked, one of the comparison names that hold for it,
// and its apply.
func checkDrift(t *testing.T, tree *load.Tree, key string, k *DriftKnowledge, r resolved) {
	t.Helper()
	var dir string
	for _, p := range tree.All {
		if p.PkgPath == r.fn.Pkg().Path() && len(p.GoFiles) > 0 {
			dir = filepath.Dir(p.GoFiles[0])
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, k.File), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Errorf("%s: drift: %v", key, err)
		return
	}
	called := map[string]bool{}
	found := false
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		isMethod := r.fn.Type().(*types.Signature).Recv() != nil
		if !ok || (fd.Recv != nil) != isMethod || fd.Name.Name != k.Func || fd.Body == nil {
			continue
		}
		found = true
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
					called[sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	if !found {
		t.Errorf("%s: drift: %s declares no function %s at %s", key, k.File, k.Func, r.module.Version)
		return
	}
	compared := false
	for _, n := range k.Compare {
		if n.holds(r.module.Version) && called[n.Name] {
			compared = true
		}
	}
	if !compared {
		t.Errorf("%s: drift: %s calls none of %s at %s", key, k.Func, versionedNames(k.Compare), r.module.Version)
	}
	if !called[k.Apply] {
		t.Errorf("%s: drift: %s does not call %s at %s", key, k.Func, k.Apply, r.module.Version)
	}
}

// checkLoop checks that the methods a loop entry names exist in its file
// at the version checked, each calling the queue methods the entry says.
func checkLoop(t *testing.T, tree *load.Tree, key string, k *LoopKnowledge, r resolved) {
	t.Helper()
	var dir string
	for _, p := range tree.All {
		if p.PkgPath == r.fn.Pkg().Path() && len(p.GoFiles) > 0 {
			dir = filepath.Dir(p.GoFiles[0])
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, k.File), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Errorf("%s: loop: %v", key, err)
		return
	}
	called := map[string]map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || fd.Body == nil {
			continue
		}
		calls := map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
					calls[sel.Sel.Name] = true
				}
			}
			return true
		})
		called[fd.Name.Name] = calls
	}
	for method, calls := range map[string][]string{
		k.Enqueue: {k.Add},
		k.Worker:  {k.Get, k.Sync},
		k.Errors:  {k.AddRateLimited, k.AddAfter},
	} {
		if called[method] == nil {
			t.Errorf("%s: loop: %s declares no method %s at %s", key, k.File, method, r.module.Version)
			continue
		}
		for _, c := range calls {
			if !called[method][c] {
				t.Errorf("%s: loop: %s does not call %s at %s", key, method, c, r.module.Version)
			}
		}
	}
}

// TestKnowledgePromoted: the comparison controllers write most,
// equality.Semantic.DeepEqual, is a method promoted into the type of
// Semantic; resolved by identity from the variable, it lands on an entry.
func TestKnowledgePromoted(t *testing.T) {
	tree := knowledgeTree(t)
	pkg := tree.Types("k8s.io/apimachinery/pkg/api/equality")
	if pkg == nil {
		t.Fatal("k8s.io/apimachinery/pkg/api/equality is not loaded")
	}
	v, ok := pkg.Scope().Lookup("Semantic").(*types.Var)
	if !ok {
		t.Fatal("equality declares no variable Semantic")
	}
	for _, m := range []string{"DeepEqual", "DeepDerivative"} {
		obj, _, _ := types.LookupFieldOrMethod(v.Type(), true, nil, m)
		fn, ok := obj.(*types.Func)
		if !ok {
			t.Errorf("Semantic has no method %s", m)
			continue
		}
		if f, ok := knowledge[funcKey(fn)]; !ok || f.Role != RoleCompare {
			t.Errorf("equality.Semantic.%s resolves to %s, which is not a comparison of the knowledge table", m, funcKey(fn))
		}
	}
}

// TestKnowledgeTypesAndFields resolves the qualified type and field names
// the locators recognise by identity.
func TestKnowledgeTypesAndFields(t *testing.T) {
	tree := knowledgeTree(t)
	lookupType := func(q string) *types.TypeName {
		path, name := splitQualified(q)
		p := tree.Types(path)
		if p == nil {
			return nil
		}
		tn, _ := p.Scope().Lookup(name).(*types.TypeName)
		return tn
	}
	typeNames := []string{typeResult, typeObjectMeta, typeApplyObjectMeta, typeGetOptions, typeListOptions, typeCondition, typeRequest, typeNamespacedName, typeContext}
	for q := range clientsetVerbs {
		typeNames = append(typeNames, q)
	}
	for q := range rawMisjudged {
		typeNames = append(typeNames, q)
	}
	for q := range writerTypes {
		typeNames = append(typeNames, q)
	}
	for q := range kindTypes {
		typeNames = append(typeNames, q)
	}
	for _, q := range typeNames {
		if lookupType(q) == nil {
			t.Errorf("type %s does not exist", q)
		}
	}
	fields := []string{fieldConditionType, fieldConditionStatus, fieldResultRequeue, fieldResultRequeueAfter, fieldDeletionTimestamp, fieldFinalizers, fieldApplyFinalizers}
	for q := range handlerFields {
		fields = append(fields, q)
	}
	gone := map[string]bool{}
	for q, before := range resyncFields {
		fields = append(fields, q)
		gone[q] = before != ""
	}
	for _, q := range fields {
		owner, name := splitQualified(q)
		tn := lookupType(owner)
		if tn == nil {
			t.Errorf("field %s: type %s does not exist", q, owner)
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(tn.Type(), false, tn.Pkg(), name)
		v, ok := obj.(*types.Var)
		exists := ok && v.IsField()
		switch {
		case gone[q] && exists:
			t.Errorf("field %s is marked gone at the version checked, but exists", q)
			continue
		case gone[q]:
			continue
		case !exists:
			t.Errorf("field %s does not exist", q)
			continue
		}
		if fieldKey(v, tn.Type()) != q {
			t.Errorf("field %s is declared as %s", q, fieldKey(v, tn.Type()))
		}
	}
}

// TestKnowledgeMatchesFixtures: the fixtures pin the library versions the
// knowledge table was checked against (those they require directly), so what the fixtures prove holds
// for the entries as resolved.
func TestKnowledgeMatchesFixtures(t *testing.T) {
	mods, err := filepath.Glob(filepath.Join("..", "..", "testdata", "src", "*", "go.mod"))
	if err != nil || len(mods) == 0 {
		t.Fatalf("no fixture go.mod found: %v", err)
	}
	for _, path := range append(mods, filepath.Join("testdata", "knowledge", "go.mod")) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		mf, err := modfile.ParseLax(path, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range mf.Require {
			// An indirect requirement is no library the fixture's code
			// calls: its version is whatever its dependencies need.
			if want, ok := knowledgeChecked[r.Mod.Path]; ok && !r.Indirect && r.Mod.Version != want {
				t.Errorf("%s requires %s %s, but the knowledge table was checked at %s: check it at the new version and update knowledgeChecked", path, r.Mod.Path, r.Mod.Version, want)
			}
		}
	}
}

// TestVersionedNames: the drift comparison's name is chosen by the module
// version the tree requires; an unknown version tries every name.
func TestVersionedNames(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    []string
	}{
		{"v0.73.0", []string{"hasDrifted"}},
		{"v0.75.0", []string{"hasDriftedWithIgnore"}},
		{"v0.77.0", []string{"hasDriftedWithIgnore"}},
		{"", []string{"hasDriftedWithIgnore", "hasDrifted"}},
	} {
		var got []string
		for _, n := range ssaDrift {
			if n.holds(tc.version) {
				got = append(got, n.Name)
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("at %q: %v, want %v", tc.version, got, tc.want)
		}
	}
}

// declaredByGeneric reports whether a method is one a generic interface of
// its package declares (workqueue's TypedInterface[T]), reached through a
// non-generic type defined as its instance (type Interface
// TypedInterface[any]): types read from export data may give the method
// that type as its receiver, those checked from source the generic one, so
// the key naming the non-generic type resolves or not by how the package
// was read, and names no declaration of its own either way.
func declaredByGeneric(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	scope := fn.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() == 0 {
			continue
		}
		if it, ok := named.Underlying().(*types.Interface); ok {
			for i := range it.NumMethods() {
				if it.Method(i).Pos() == fn.Pos() {
					return true
				}
			}
		}
	}
	return false
}
