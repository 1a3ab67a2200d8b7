package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestHelpTeaches: every command shows at least one example, and every
// flag says what it does, with a value name that is one word (pflag takes
// a back-quoted word of the usage as the value's name).
func TestHelpTeaches(t *testing.T) {
	var out bytes.Buffer
	g := &globals{stderr: &out}
	root := newRoot(g, &out)
	root.AddCommand(
		newLocate(g, nil),
		newTable(g, nil),
		newExplain(g, nil),
		newCheck(g, nil),
		newStages(g, nil),
	)
	for _, c := range root.Commands() {
		if c.Example == "" {
			t.Errorf("%s: no example in its help", c.Name())
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			name, usage := pflag.UnquoteUsage(f)
			switch {
			case strings.TrimSpace(usage) == "":
				t.Errorf("%s --%s: no usage", c.Name(), f.Name)
			case strings.Contains(name, " "):
				t.Errorf("%s --%s: its value is named %q", c.Name(), f.Name, name)
			}
		})
	}
}
