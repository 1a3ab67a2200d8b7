package locate_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestResyncByFactoryType checks that an event-driven client-go
// controller's none cites the resync of the factory whose type gives
// informers of its kind (resyncflows: the Kubernetes types' factory),
// not the one created first (a factory of Widgets), when neither gives
// its informers in the function that creates it.
func TestResyncByFactoryType(t *testing.T) {
	const name = "resyncflows"
	l := locateFixture(t, name)
	if l.err != nil {
		t.Fatal(l.err)
	}
	main := filepath.Join("..", "..", "testdata", "src", name, "main.go")
	line := lineOf(t, main, "kubeinformers.NewSharedInformerFactory(")
	want := fmt.Sprintf("(testdata/src/%s/main.go:%d)", name, line)
	for _, c := range l.ctrls {
		r := c.Rows[locate.RowRequeueSuccess]
		if !strings.Contains(r.None, want) {
			t.Errorf("%s: requeue-success: %q, want the resync of the ConfigMaps' factory %s", c.Name, r.None, want)
		}
	}
	if len(l.ctrls) == 0 {
		t.Errorf("%s: no controller found", name)
	}
}

// lineOf is the line of a file that holds text.
func lineOf(t *testing.T, path, text string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), text) {
			return n
		}
	}
	t.Fatalf("%s: no line holds %q", path, text)
	return 0
}
