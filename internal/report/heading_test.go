package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// TestTextHeadings: two controllers of one name in different packages are
// told apart in their headings by their package's directory (as --kind
// takes them), and a controller with no kind says so.
func TestTextHeadings(t *testing.T) {
	at := func(name, kind, file string) locate.Controller {
		return locate.Controller{Name: name, Kind: kind, Style: "controller-runtime", Rows: map[string]locate.Row{
			locate.RowEntry: {Sites: []locate.Site{{Site: cite.Site{File: file, Line: 3, Func: "(*" + name + ").Reconcile"}, Primary: true}}},
		}}
	}
	tree := result.Tree{Root: "twomod", Module: "example.com/twomod", Controllers: []locate.Controller{
		at("ConfigMapReconciler", "ConfigMap", "controllers/configmap.go"),
		at("ConfigMapReconciler", "ConfigMap", "plugins/controllers/configmap.go"),
		at("StatusReconciler", "", "status/status.go"),
	}}
	var b bytes.Buffer
	if err := report.Text(&b, tree, 200); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"controllers/ConfigMapReconciler, kind ConfigMap (controller-runtime), in twomod\n",
		"plugins/controllers/ConfigMapReconciler, kind ConfigMap (controller-runtime), in twomod\n",
		"\nStatusReconciler, no kind (controller-runtime), in twomod\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no heading %q in:\n%s", want, b.String())
		}
	}
}
