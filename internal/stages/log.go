package stages

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// Line is one STAGE line of a controller's log.
type Line struct {
	N      int    `json:"n"`      // line number in the log
	Stage  string `json:"stage"`  // watch, enqueue, dequeue, read, write
	At     string `json:"at"`     // file:line of the statement that printed it, as the log says
	Object string `json:"object"` // namespace/name, from the object or key value
	// KV are the line's other key/value pairs.
	KV   map[string]string `json:"kv,omitempty"`
	Text string            `json:"text"`
}

// ObjectLife is what the log says about one object.
type ObjectLife struct {
	Object string         `json:"object"`
	Counts map[string]int `json:"counts"`
	// Passes is the number of reconciles: dequeues of the object.
	Passes int `json:"passes"`
	// WritingPasses is how many passes wrote (events aside).
	WritingPasses int    `json:"writingPasses"`
	Verdict       string `json:"verdict"` // settles, hot loop, unsettled, no pass
	Why           string `json:"why"`
}

// Reading is a log read against the stages.
type Reading struct {
	Lines   []Line       `json:"lines"`
	Objects []ObjectLife `json:"objects"`
}

// The verdicts on an object's life.
const (
	VerdictSettles   = "settles"
	VerdictHotLoop   = "hot loop"
	VerdictUnsettled = "unsettled"
	VerdictNoPass    = "no pass"
)

// klogHeader matches klog's text header: Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg
var klogHeader = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ ([^\]\s]+:\d+)\] (.*)$`)

// ErrNoStageLines is the cause of ReadLog's error for a log without one
// STAGE line: the controller that wrote it was not patched, or logged in
// another format.
var ErrNoStageLines = errors.New("no STAGE lines")

// ReadLog reads a klog log, text or JSON (one object per line), keeping the
// STAGE lines. name names the log in errors.
func ReadLog(r io.Reader, name string) (Reading, error) {
	var rd Reading
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimRight(sc.Text(), "\r")
		var l Line
		var ok bool
		if strings.HasPrefix(strings.TrimSpace(text), "{") {
			l, ok = jsonLine(text)
		} else {
			l, ok = textLine(text)
		}
		if !ok {
			continue
		}
		l.N, l.Text = n, text
		rd.Lines = append(rd.Lines, l)
	}
	if err := sc.Err(); err != nil {
		return Reading{}, fmt.Errorf("log %s: %w", name, err)
	}
	if len(rd.Lines) == 0 {
		return Reading{}, fmt.Errorf("log %s has %w (it must be the klog text or JSON output of a patched controller)", name, ErrNoStageLines)
	}
	rd.Objects = lives(rd.Lines)
	return rd, nil
}

// stageOf says whether msg is a STAGE tag and which.
func stageOf(msg string) (string, bool) {
	s, ok := strings.CutPrefix(msg, tagPrefix)
	if !ok {
		return "", false
	}
	for _, n := range stageNames {
		if s == n {
			return s, true
		}
	}
	return "", false
}

// textLine parses klog's text format: a header, the quoted message, then
// key=value pairs (values quoted, or bare up to a space).
func textLine(text string) (Line, bool) {
	m := klogHeader.FindStringSubmatch(text)
	if m == nil {
		return Line{}, false
	}
	rest := m[2]
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return Line{}, false
	}
	msg, _ := strconv.Unquote(q)
	stage, ok := stageOf(msg)
	if !ok {
		return Line{}, false
	}
	l := Line{Stage: stage, At: m[1], KV: map[string]string{}}
	rest = rest[len(q):]
	for {
		rest = strings.TrimLeft(rest, " ")
		k, after, found := strings.Cut(rest, "=")
		if !found || k == "" || strings.ContainsAny(k, " \"") {
			break
		}
		var v string
		if strings.HasPrefix(after, `"`) {
			q, err := strconv.QuotedPrefix(after)
			if err != nil {
				break
			}
			v, _ = strconv.Unquote(q)
			rest = after[len(q):]
		} else {
			end := strings.IndexByte(after, ' ')
			if end < 0 {
				end = len(after)
			}
			v, rest = after[:end], after[end:]
		}
		l.KV[k] = v
	}
	l.Object = objectOf(l.KV)
	return l, true
}

// jsonLine parses a JSON log line (klog's JSON format: msg, caller, and the
// key/value pairs as fields).
func jsonLine(text string) (Line, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return Line{}, false
	}
	var msg, caller string
	json.Unmarshal(m["msg"], &msg)
	json.Unmarshal(m["caller"], &caller)
	stage, ok := stageOf(msg)
	if !ok {
		return Line{}, false
	}
	l := Line{Stage: stage, At: caller, KV: map[string]string{}}
	for k, raw := range m {
		switch k {
		case "msg", "caller", "ts", "v", "level", "logger":
			continue
		}
		l.KV[k] = jsonValue(raw)
	}
	l.Object = objectOf(l.KV)
	return l, true
}

// jsonValue renders a field: strings as they are, klog object references
// ({"name":…, "namespace":…}) as namespace/name, anything else as JSON.
func jsonValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var ref struct{ Name, Namespace string }
	if json.Unmarshal(raw, &ref) == nil && ref.Name != "" {
		if ref.Namespace == "" {
			return ref.Name
		}
		return ref.Namespace + "/" + ref.Name
	}
	return string(raw)
}

// objectOf is the object a line is about: its object, else its key.
func objectOf(kv map[string]string) string {
	if o := kv[keyObject]; o != "" {
		delete(kv, keyObject)
		return o
	}
	if k := kv[keyKey]; k != "" {
		delete(kv, keyKey)
		return k
	}
	return ""
}

// failed reports whether a write line carries an error.
func failed(l Line) bool {
	switch l.KV[keyErr] {
	case "", "<nil>", "null":
		return false
	}
	return true
}

// pass is one reconcile of an object: a dequeue and what follows it.
type pass struct {
	lines []Line
}

func (p pass) writes() []Line {
	var ws []Line
	for _, l := range p.lines {
		if l.Stage == stageWrite && l.KV[keyVerb] != locate.VerbRecord {
			ws = append(ws, l)
		}
	}
	return ws
}

// lives groups the lines by object, cuts each object's lines into passes at
// its dequeues, and judges whether it settles.
func lives(lines []Line) []ObjectLife {
	byObj := map[string][]Line{}
	var order []string
	for _, l := range lines {
		if l.Object == "" {
			continue
		}
		if byObj[l.Object] == nil {
			order = append(order, l.Object)
		}
		byObj[l.Object] = append(byObj[l.Object], l)
	}
	var out []ObjectLife
	for _, obj := range order {
		life := ObjectLife{Object: obj, Counts: map[string]int{}}
		var passes []pass
		for _, l := range byObj[obj] {
			life.Counts[l.Stage]++
			if l.Stage == stageDequeue {
				passes = append(passes, pass{})
			}
			if len(passes) > 0 {
				passes[len(passes)-1].lines = append(passes[len(passes)-1].lines, l)
			}
		}
		life.Passes = len(passes)
		for _, p := range passes {
			if len(p.writes()) > 0 {
				life.WritingPasses++
			}
		}
		life.Verdict, life.Why = verdict(passes)
		out = append(out, life)
	}
	return out
}

func verdict(passes []pass) (string, string) {
	if len(passes) == 0 {
		return VerdictNoPass, "no STAGE/dequeue line for it: the worker never took its key"
	}
	last := passes[len(passes)-1]
	lastWrites := last.writes()
	if len(lastWrites) == 0 {
		why := fmt.Sprintf("the last of %d passes (dequeued at log line %d) wrote nothing", len(passes), last.lines[0].N)
		for _, l := range last.lines {
			if l.Stage == stageWrite {
				why += "; it only recorded events, which no informer of the controller watches"
				break
			}
		}
		return VerdictSettles, why
	}
	writing := 0
	for _, p := range passes {
		if len(p.writes()) > 0 {
			writing++
		}
	}
	what := describeWrites(lastWrites)
	if writing == len(passes) && len(passes) >= 3 {
		why := fmt.Sprintf("every one of the %d passes writes (%s), and each write brings the object back", len(passes), what)
		if d := differing(passes); d != "" {
			why += "; " + d
		}
		return VerdictHotLoop, why
	}
	return VerdictUnsettled, fmt.Sprintf("the last pass (dequeued at log line %d) still writes (%s); the log ends before the object settles", last.lines[0].N, what)
}

func describeWrites(ws []Line) string {
	var parts []string
	for _, w := range ws {
		d := strings.TrimSpace(w.KV[keyVerb] + " " + w.KV[keyTarget])
		if failed(w) {
			d += " (failed: " + w.KV[keyErr] + ")"
		}
		if !slices.Contains(parts, d) {
			parts = append(parts, d)
		}
	}
	return strings.Join(parts, ", ")
}

// routine are the keys every probe prints; what else differs between passes
// is what the controller keeps changing.
var routine = map[string]bool{keyVerb: true, keyTarget: true, keyErr: true, keyQueueLen: true, keyHandler: true}

// differing names the fields of the STAGE lines whose value changes from
// pass to pass, resourceVersion last.
func differing(passes []pass) string {
	values := map[string][]string{}
	for _, p := range passes {
		seen := map[string]bool{}
		for _, l := range p.lines {
			for k, v := range l.KV {
				if routine[k] || seen[k] {
					continue
				}
				seen[k] = true
				values[k] = append(values[k], v)
			}
		}
	}
	var keys []string
	for k, vs := range values {
		changes := true
		for i := 1; i < len(vs); i++ {
			if vs[i] == vs[i-1] {
				changes = false
			}
		}
		if changes && len(vs) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == keyResourceVersion) != (keys[j] == keyResourceVersion) {
			return keys[j] == keyResourceVersion
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for _, k := range keys {
		vs := values[k]
		if len(vs) > 4 {
			vs = append(vs[:3:3], "…")
		}
		parts = append(parts, fmt.Sprintf("%s differs on every pass (%s)", k, strings.Join(vs, " → ")))
	}
	return strings.Join(parts, "; ")
}
