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
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// Line is one STAGE line of a controller's log.
type Line struct {
	N      int       `json:"n"`      // line number in the log
	Stage  string    `json:"stage"`  // watch, enqueue, dequeue, read, write, requeue
	At     string    `json:"at"`     // file:line of the statement that printed it, as the log says
	Time   time.Time `json:"-"`      // when it was printed (klog text has no year: 2000 stands in)
	Object string    `json:"object"` // namespace/name, from the object or key value
	// KV are the line's other key/value pairs.
	KV   map[string]string `json:"kv,omitempty"`
	Text string            `json:"text"`
}

// ObjectLife is what the log says about one object: its lines counted by
// stage, and its life cut into episodes, each judged on its own.
type ObjectLife struct {
	Object string         `json:"object"`
	Counts map[string]int `json:"counts"`
	// Passes is the number of reconciles over the whole log: dequeues of
	// the object.
	Passes   int       `json:"passes"`
	Episodes []Episode `json:"episodes"`
	// Verdict and Why are those of the last episode.
	Verdict Verdict `json:"verdict"`
	Why     string  `json:"why"`
}

// Episode is one stretch of an object's life that something outside the
// controller started (a create, the startup replay, a change, a resync, a
// delete), with the passes that followed until the next such thing.
type Episode struct {
	Kind EpisodeKind `json:"kind"`
	// From and To are the log lines of its first and last line.
	From int `json:"from"`
	To   int `json:"to"`
	// Passes are its reconciles; WritingPasses those that wrote a change
	// (events, writes of unwatched kinds, no-op and failed writes aside);
	// Retries those the workqueue brought back after a failed pass.
	Passes        int `json:"passes"`
	WritingPasses int `json:"writingPasses"`
	Retries       int `json:"retries"`
	// Reentries says what brought each pass after the first back.
	Reentries []Reentry `json:"reentries,omitempty"`
	// QuietMs is how long the object stayed quiet after the episode's last
	// line: until the next episode, or the end of the log; -1 when the
	// log has no timestamps.
	QuietMs int64   `json:"quietMs"`
	Verdict Verdict `json:"verdict"`
	Why     string  `json:"why"`
}

// Reentry is what brought a pass of an episode back.
type Reentry struct {
	Pass  int    `json:"pass"`  // 2 for the episode's second pass
	Line  int    `json:"line"`  // its dequeue line
	Cause string `json:"cause"` // e.g. "Foo update, the echo of update Foo status (line 12)"
}

// Reading is a log read against the stages.
type Reading struct {
	Lines   []Line       `json:"lines"`
	Objects []ObjectLife `json:"objects"`
}

// Verdict is the judgement on one episode of an object's life.
type Verdict string

// The verdicts on an episode.
const (
	// Settles: the object went quiet: no line for it during the settle
	// window after its last pass, or its last pass wrote no change and it
	// stayed quiet until something outside changed it again.
	Settles Verdict = "settles"
	// ErrorLoop: the passes come back through the workqueue's rate limiter
	// after failures, at growing gaps, and the last one failed too.
	ErrorLoop Verdict = "error loop"
	// HotLoop: every pass writes a change whose watch event brings the
	// object straight back.
	HotLoop Verdict = "hot loop"
	// NotSeenLongEnough: the log ends (or the next episode starts) before
	// the settle window has passed, and nothing says the object is looping.
	NotSeenLongEnough Verdict = "not seen long enough"
	// NoPass: the worker never took the object's key.
	NoPass Verdict = "no pass"
)

// EpisodeKind says what started an episode.
type EpisodeKind string

// The kinds of episode.
const (
	EpisodeCreate  EpisodeKind = "create"
	EpisodeReplay  EpisodeKind = "startup replay"
	EpisodeChange  EpisodeKind = "change"
	EpisodeResync  EpisodeKind = "resync"
	EpisodeDelete  EpisodeKind = "delete"
	EpisodeUnknown EpisodeKind = "first seen"
)

// DefaultSettle is the silence after an episode's last pass that ReadLog
// takes as the evidence that the object settled.
const DefaultSettle = 5 * time.Second

// Options are what ReadLog knows besides the log.
type Options struct {
	// Settle is the settle window; 0 means DefaultSettle.
	Settle time.Duration
	// Watched, when not nil, names the kinds the controller's informers
	// watch (Deployment, Foo): a write of another kind never brings the
	// object back. When nil, a write line's own reenters key says so, and
	// without it every write but an event record is taken to.
	Watched []string
}

// klogHeader matches klog's text header: Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg
var klogHeader = regexp.MustCompile(`^[IWEF](\d{4} \d\d:\d\d:\d\d\.\d+)\s+\d+ ([^\]\s]+:\d+)\] (.*)$`)

// klogTime is the layout of klog's text timestamp, after a year: klog
// prints none, and a leap year lets 29 February parse.
const (
	klogTime = "2006 0102 15:04:05.999999"
	klogYear = "2000 "
)

// ErrNoStageLines is the cause of ReadLog's error for a log without one
// STAGE line: the controller that wrote it was not patched, or logged in
// another format.
var ErrNoStageLines = errors.New("no STAGE lines")

// ReadLog reads a klog log, text or JSON (one object per line), keeping the
// STAGE lines, and judges each object's episodes. name names the log in
// errors.
func ReadLog(r io.Reader, name string, opts Options) (Reading, error) {
	if opts.Settle <= 0 {
		opts.Settle = DefaultSettle
	}
	var rd Reading
	var end time.Time // the time of the log's last line, STAGE or not
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimRight(sc.Text(), "\r")
		var l Line
		var ok bool
		var when time.Time
		if strings.HasPrefix(strings.TrimSpace(text), "{") {
			l, when, ok = jsonLine(text)
		} else {
			l, when, ok = textLine(text)
		}
		if !when.IsZero() && when.After(end) {
			end = when
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
	rd.Objects = lives(rd.Lines, end, opts)
	return rd, nil
}

// WatchedKinds are the kinds whose informer events reach a controller's
// workqueue (its watch anchors): the Options.Watched of a log whose write
// lines do not say whether they re-enter (an earlier patch's).
func WatchedKinds(c locate.Controller) []string {
	var kinds []string
	for _, an := range c.Anchors {
		if an.Stage == locate.StageWatch && an.Informer != "" && !slices.Contains(kinds, an.Informer) {
			kinds = append(kinds, an.Informer)
		}
	}
	sort.Strings(kinds)
	return kinds
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
func textLine(text string) (Line, time.Time, bool) {
	m := klogHeader.FindStringSubmatch(text)
	if m == nil {
		return Line{}, time.Time{}, false
	}
	when, _ := time.Parse(klogTime, klogYear+m[1])
	rest := m[3]
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return Line{}, when, false
	}
	msg, _ := strconv.Unquote(q)
	stage, ok := stageOf(msg)
	if !ok {
		return Line{}, when, false
	}
	l := Line{Stage: stage, At: m[2], Time: when, KV: map[string]string{}}
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
	return l, when, true
}

// jsonLine parses a JSON log line (klog's JSON format: msg, caller, and the
// key/value pairs as fields).
func jsonLine(text string) (Line, time.Time, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return Line{}, time.Time{}, false
	}
	var msg, caller string
	json.Unmarshal(m["msg"], &msg)
	json.Unmarshal(m["caller"], &caller)
	when := jsonTime(m["ts"])
	stage, ok := stageOf(msg)
	if !ok {
		return Line{}, when, false
	}
	l := Line{Stage: stage, At: caller, Time: when, KV: map[string]string{}}
	for k, raw := range m {
		switch k {
		case "msg", "caller", "ts", "v", "level", "logger":
			continue
		}
		l.KV[k] = jsonValue(raw)
	}
	l.Object = objectOf(l.KV)
	return l, when, true
}

// jsonTime reads a JSON line's ts: klog's JSON logger writes milliseconds
// since the epoch, other zap loggers seconds (a number below 1e11: no
// millisecond count since 1973 is that small), others an RFC 3339 string.
func jsonTime(raw json.RawMessage) time.Time {
	var n float64
	if json.Unmarshal(raw, &n) == nil && n > 0 {
		if n < 1e11 {
			n *= 1000
		}
		return time.UnixMicro(int64(n * 1000)).UTC()
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t
		}
	}
	return time.Time{}
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

// objectOf is the object a line is about: its object, else its key, else
// the objectRef a controller's logger may carry as a context value.
func objectOf(kv map[string]string) string {
	for _, k := range []string{keyObject, keyKey, keyObjectRef} {
		if o := kv[k]; o != "" {
			delete(kv, k)
			return o
		}
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
