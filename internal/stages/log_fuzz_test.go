package stages_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/stages"
)

// FuzzReadLog: ReadLog never panics; it either fails with ErrNoStageLines
// (or the scanner's error for an overlong line) or every line it keeps is
// the line of the log it numbers, with a stage; and reading the same log
// twice gives the same reading. Seeded with the log fixtures.
func FuzzReadLog(f *testing.F) {
	logs, err := filepath.Glob(fixture(filepath.Join("logs", "*.log")))
	if err != nil || len(logs) == 0 {
		f.Fatalf("no log fixtures (%v)", err)
	}
	for _, name := range logs {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("I0601 10:00:00.000000 1 c.go:1] \"STAGE/dequeue\" key=\"a/b\" k=v err=\"x\\\n"))
	f.Add([]byte("{\"msg\":\"STAGE/write\",\"object\":{\"name\":\"n\"},\"verb\":\"update\",\"err\":null}\r\n{\"msg\":\"STAGE/dequeue\",\"key\":\"n\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := stages.ReadLog(bytes.NewReader(data), "fuzz.log", stages.Options{})
		if err != nil {
			if !errors.Is(err, stages.ErrNoStageLines) && !strings.Contains(err.Error(), "too long") {
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		lines := strings.Split(string(data), "\n")
		for _, l := range rd.Lines {
			if l.N < 1 || l.N > len(lines) || strings.TrimRight(lines[l.N-1], "\r") != l.Text {
				t.Fatalf("line %d: text %q is not that line of the log", l.N, l.Text)
			}
			if l.Stage == "" {
				t.Fatalf("line %d: no stage: %+v", l.N, l)
			}
		}
		again, err := stages.ReadLog(bytes.NewReader(data), "fuzz.log", stages.Options{})
		if err != nil || !reflect.DeepEqual(rd, again) {
			t.Fatalf("a second reading differs (err %v):\n%+v\n%+v", err, rd, again)
		}
	})
}
