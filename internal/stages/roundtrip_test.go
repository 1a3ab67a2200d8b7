package stages_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/stages"
)

// event is one STAGE line of an object's scripted life: the stage, for a
// write the target it writes, for a watch the informer and its event (the
// handler that logs it); values are the logged values of the probe's
// expressions, by key; after is the time since the line before (1.5 ms
// when zero).
type event struct {
	stage, target string
	informer, on  string
	values        map[string]string
	after         time.Duration
}

// logLine is a probe's line as klog prints it: where the patched source
// logs it from, and its values.
type logLine struct {
	at     string // file:line in the patched tree
	when   time.Time
	probe  stages.Probe
	values map[string]string
}

// text formats the line in klog's text format.
func (l logLine) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "I%s    4242 %s] %q", l.when.Format("0102 15:04:05.000000"), filepath.Base(l.at), "STAGE/"+l.probe.Stage)
	for _, kv := range l.probe.KVs {
		v := kv.Value
		if !kv.Fixed {
			v = l.values[kv.Key]
		}
		switch {
		case kv.Key == "err" || kv.Key == "queueLen":
			fmt.Fprintf(&b, " %s=%s", kv.Key, v)
		default:
			fmt.Fprintf(&b, " %s=%q", kv.Key, v)
		}
	}
	return b.String()
}

// json formats the line as klog's JSON logger does.
func (l logLine) json() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"ts":%.1f,"caller":%q,"msg":%q,"v":0`, float64(l.when.UnixMicro())/1000, l.at, "STAGE/"+l.probe.Stage)
	for _, kv := range l.probe.KVs {
		var v any = kv.Value
		if !kv.Fixed {
			v = l.values[kv.Key]
		}
		switch kv.Key {
		case "object":
			ns, name, _ := strings.Cut(v.(string), "/")
			v = map[string]string{"name": name, "namespace": ns}
		case "queueLen":
			v, _ = strconv.Atoi(v.(string))
		case "err":
			if v == "<nil>" {
				v = nil
			}
		}
		enc, _ := json.Marshal(v)
		fmt.Fprintf(&b, ",%q:%s", kv.Key, enc)
	}
	b.WriteString("}")
	return b.String()
}

// live patches a copy of a client-go fixture, then writes the lines its
// probes log when the object lives through events, as klog would print
// them from the patched source.
func live(t *testing.T, fixtureName string, events []event) (dir string, lines []logLine) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), fixtureName)
	if err := os.CopyFS(dir, os.DirFS(fixture(filepath.Join("src", fixtureName)))); err != nil {
		t.Fatal(err)
	}
	ins := instrument(t, dir, controllerOf(t, dir))
	changes, err := stages.Patch(dir, ins)
	if err != nil {
		t.Fatal(err)
	}
	if err := stages.Write(changes); err != nil {
		t.Fatal(err)
	}
	// Each probe's line in the patched file: where its statement landed.
	at := map[int]string{}
	for i, p := range ins.Probes {
		src, err := os.ReadFile(p.File)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, p.Statement()) {
				rel, _ := filepath.Rel(dir, p.File)
				at[i] = fmt.Sprintf("%s:%d", filepath.ToSlash(rel), n+1)
			}
		}
		if at[i] == "" {
			t.Fatalf("probe %q is not in the patched %s", p.Code(), p.File)
		}
	}
	when := time.Date(2026, 6, 1, 10, 0, 3, 100000000, time.UTC)
	for i, e := range events {
		if i > 0 {
			when = when.Add(cmp.Or(e.after, 1500*time.Microsecond))
		}
		found := false
		for i, p := range ins.Probes {
			if p.Stage != e.stage || e.target != "" && !hasKV(p, "target", e.target) ||
				e.informer != "" && !(hasKV(p, "informer", e.informer) && hasKV(p, "event", e.on)) {
				continue
			}
			lines = append(lines, logLine{at: at[i], when: when, probe: p, values: e.values})
			found = true
			break
		}
		if !found {
			t.Fatalf("no %s probe (target %q, informer %q %q) in %s", e.stage, e.target, e.informer, e.on, fixtureName)
		}
	}
	return dir, lines
}

// hasKV says a probe logs a fixed value under a key.
func hasKV(p stages.Probe, key, value string) bool {
	for _, kv := range p.KVs {
		if kv.Key == key && kv.Fixed && kv.Value == value {
			return true
		}
	}
	return false
}

// pass scripts one reconcile of obj at a resourceVersion: the informer
// event that brings it ("ConfigMap add"; "" when the workqueue does), and
// its writes.
func pass(obj, rv, trigger string, writes ...string) []event {
	v := map[string]string{"object": obj, "key": obj, "queueLen": "0", "resourceVersion": rv, "err": "<nil>"}
	var out []event
	if informer, on, ok := strings.Cut(trigger, " "); ok {
		out = append(out, event{stage: "watch", informer: informer, on: on, values: v}, event{stage: "enqueue", values: v})
	}
	out = append(out, event{stage: "dequeue", values: v}, event{stage: "read", values: v})
	for _, w := range writes {
		out = append(out, event{stage: "write", target: w, values: v})
	}
	return out
}

// failing ends a pass with the worker's rate-limited requeue, and starts it
// after a wait (the backoff before it).
func failing(wait time.Duration, evs []event) []event {
	evs[0].after = wait
	return append(evs, event{stage: "requeue", values: evs[0].values})
}

// TestRoundTrip patches the client-go fixtures, writes the log lines their
// probes print over a scripted life with the probes' own keys and values,
// reads them back with ReadLog, and asserts the verdict. The log fixtures
// under testdata/logs are these lines (go test -update rewrites them).
func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		fixture, log string
		json         bool
		events       [][]event
		// quiet, when not zero, is how long the controller logs nothing
		// more before its last line.
		quiet   time.Duration
		verdict stages.Verdict
		why     string
	}{
		{
			// A create writes the Secret and records an event; the
			// Secret's add brings the owner back; the second pass only
			// records an event, which no informer watches; then quiet.
			fixture: "clientgo-plain", log: "settles.log",
			events: [][]event{
				pass("default/app-config", "1001", "ConfigMap add", "Secret", "Event about ConfigMap"),
				pass("default/app-config", "1001", "Secret add", "Event about ConfigMap"),
			},
			quiet:   20 * time.Second,
			verdict: stages.Settles, why: "quiet for 20s after its last line (log line 12), until the log ends, longer than the settle window of 5s; 2 passes, 1 wrote a change, 1 brought back by the watch event of an own write, 2 event records",
		},
		{
			// Every pass updates the status, which fires the update
			// handler again.
			fixture: "clientgo-finalizer", log: "hotloop.json.log", json: true,
			events: [][]event{
				pass("default/w1", "2001", "Widget add", "Widget", "Widget status"),
				pass("default/w1", "2003", "Widget update", "Widget status"),
				pass("default/w1", "2004", "Widget update", "Widget status"),
				pass("default/w1", "2005", "Widget update", "Widget status"),
			},
			verdict: stages.HotLoop, why: "resourceVersion differs on every pass (2001 → 2003 → 2004 → 2005)",
		},
		{
			// Every pass fails and the worker requeues it rate-limited:
			// the retries come at growing gaps, with no watch event.
			fixture: "clientgo-plain", log: "errorloop.log",
			events: [][]event{
				failing(0, pass("default/taken", "3001", "ConfigMap add", "Event about ConfigMap")),
				failing(5*time.Millisecond, pass("default/taken", "3001", "", "Event about ConfigMap")),
				failing(10*time.Millisecond, pass("default/taken", "3001", "", "Event about ConfigMap")),
				failing(20*time.Millisecond, pass("default/taken", "3001", "", "Event about ConfigMap")),
				failing(40*time.Millisecond, pass("default/taken", "3001", "", "Event about ConfigMap")),
			},
			quiet:   60 * time.Millisecond,
			verdict: stages.ErrorLoop, why: "4 of its 5 passes came back as the workqueue's retries after failures, at gaps growing from",
		},
	} {
		t.Run(tc.log, func(t *testing.T) {
			var events []event
			for _, p := range tc.events {
				events = append(events, p...)
			}
			dir, lines := live(t, tc.fixture, events)
			var log strings.Builder
			if !tc.json {
				log.WriteString("I0601 10:00:00.000000    4242 main.go:44] \"Setting up event handlers\"\n")
			}
			for _, l := range lines {
				if tc.json {
					log.WriteString(l.json() + "\n")
				} else {
					log.WriteString(l.text() + "\n")
				}
			}
			if tc.quiet > 0 {
				fmt.Fprintf(&log, "I%s    4242 controller.go:99] \"Shutting down workers\"\n", lines[len(lines)-1].when.Add(tc.quiet).Format("0102 15:04:05.000000"))
			}
			golden.Check(t, fixture(filepath.Join("logs", tc.log)), []byte(log.String()))
			rd, err := stages.ReadLog(strings.NewReader(log.String()), tc.log, stages.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if n := stages.Resolve(dir, &rd); n != len(lines) {
				t.Errorf("%d of %d lines resolve to a STAGE statement of the patched tree", n, len(lines))
			}
			if len(rd.Objects) != 1 {
				t.Fatalf("objects %+v, want one", rd.Objects)
			}
			if o := rd.Objects[0]; o.Verdict != tc.verdict || !strings.Contains(o.Why, tc.why) {
				t.Errorf("verdict %q (%s), want %q (%s)", o.Verdict, o.Why, tc.verdict, tc.why)
			}
		})
	}
}
