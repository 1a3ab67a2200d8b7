package stages

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// echoWindow is how soon the watch event of the controller's own write
// arrives: a watch line of the object later than this after a write is
// something else (a change from outside), and a write no watch line follows
// within it changed nothing (a real server sends no event for a no-op
// update). It never exceeds the settle window.
const echoWindow = time.Second

// judge reads the lives of the objects of one log.
type judge struct {
	opts Options
	// end is the time of the log's last line, STAGE or not.
	end time.Time
	// firstDequeue is the log line of the first dequeue of any object:
	// informers deliver their initial lists before the workers start, so
	// a watch line before it may be the startup replay.
	firstDequeue int
	// requeueLines says the log has requeue lines (the patch logs them):
	// a pass that comes back without one is not inferred to have failed.
	requeueLines bool
}

// pass is one reconcile of an object: a dequeue and what follows it until
// the next dequeue of the object.
type pass struct {
	dequeue Line
	lines   []Line
	// cause says what brought it; byEcho that it was the watch event of
	// the controller's own write, retry that it was the workqueue's
	// requeue of a failed pass.
	cause         string
	byEcho, retry bool
	readRV        string
	// changes are its successful writes of watched kinds; moved counts
	// its writes whose logged resourceVersion moved.
	changes       []*change
	moved         int
	noops, events int
	unwatched     int
	failedWrites  []Line
	requeue       string // its requeue line's requeue value
	failed        bool   // a failed write, or a rate-limited requeue after it
	// unlogged says no watch or requeue line brought it, in a log without
	// requeue lines; inferredFailed that such passes after it came at
	// growing gaps, so it returned an error.
	unlogged       bool
	inferredFailed bool
}

// change is a successful write of a watched kind, and whether its watch
// event came.
type change struct {
	write  Line
	echoed bool
}

// wroteChange says the pass wrote a change: one its watch event or its
// resourceVersion shows.
func (p *pass) wroteChange() bool { return p.moved > 0 || p.echoes() > 0 }

// echoes counts the changes whose watch event came.
func (p *pass) echoes() int {
	n := 0
	for _, c := range p.changes {
		if c.echoed {
			n++
		}
	}
	return n
}

// unechoed are the changes whose watch event has not come.
func (p *pass) unechoed() []Line {
	var ls []Line
	for _, c := range p.changes {
		if !c.echoed {
			ls = append(ls, c.write)
		}
	}
	return ls
}

// shape is what a pass wrote, to tell a retry that fails the same way.
func (p *pass) shape() string {
	var parts []string
	for _, l := range p.lines {
		if l.Stage == stageWrite {
			parts = append(parts, describeWrites([]Line{l}))
		}
	}
	return strings.Join(parts, ", ")
}

// echo is a write that may bring its object back: a successful write of a
// watched kind whose watch line has not come yet.
type echo struct {
	change *change
	kind   string
}

// owed is a requeue the workqueue owes a pass: a retry after a failure, or
// a requeue after a delay.
type owed struct {
	by  *pass
	why string
}

// episode is a stretch of an object's life, started by something outside
// the controller.
type episode struct {
	kind   EpisodeKind
	first  Line
	passes []*pass
	// watches and informers count the outside watch lines before its
	// first pass, and the informers they name.
	watches   int
	informers []string
	// last is its last line; next the first line of the next episode.
	last Line
	next *Line
}

// lives groups the lines by object and judges each object's episodes.
func lives(lines []Line, end time.Time, opts Options) []ObjectLife {
	j := judge{opts: opts, end: end}
	byObj := map[string][]Line{}
	var order []string
	// Without enqueue lines (the patch could not place one), a watch line
	// belongs to the object it logs.
	enqueues := slices.ContainsFunc(lines, func(l Line) bool { return l.Stage == stageEnqueue })
	for i, l := range lines {
		if l.Stage == stageDequeue && j.firstDequeue == 0 {
			j.firstDequeue = l.N
		}
		if l.Stage == stageRequeue {
			j.requeueLines = true
		}
		obj := l.Object
		if l.Stage == stageWatch && enqueues {
			// The event belongs to the life of the key its handler
			// enqueues: the next enqueue line before another watch line
			// (a handler of another kind's informer, a Deployment the
			// object owns, logs that object). A handler that enqueues
			// nothing (an event it filters out) brought nothing back.
			obj = enqueuedAfter(lines[i+1:])
		}
		if obj == "" {
			continue
		}
		if byObj[obj] == nil {
			order = append(order, obj)
		}
		byObj[obj] = append(byObj[obj], l)
	}
	var out []ObjectLife
	for _, obj := range order {
		life := ObjectLife{Object: obj, Counts: map[string]int{}}
		for _, l := range byObj[obj] {
			life.Counts[l.Stage]++
			if l.Stage == stageDequeue {
				life.Passes++
			}
		}
		for _, e := range j.episodes(obj, byObj[obj]) {
			life.Episodes = append(life.Episodes, j.judged(e))
		}
		last := life.Episodes[len(life.Episodes)-1]
		life.Verdict, life.Why = last.Verdict, last.Why
		out = append(out, life)
	}
	return out
}

// enqueuedAfter is the key of the first enqueue line among lines, when no
// watch line comes before it.
func enqueuedAfter(lines []Line) string {
	for _, l := range lines {
		switch l.Stage {
		case stageWatch:
			return ""
		case stageEnqueue:
			return l.Object
		}
	}
	return ""
}

// episodes cuts an object's lines into episodes and passes, saying what
// brought each pass.
func (j *judge) episodes(obj string, lines []Line) []*episode {
	var eps []*episode
	var cur *episode
	var now *pass
	var pending []echo
	// early holds the watch lines that came while a pass was still
	// running: the echo of a write that pass has yet to log, or a change
	// made while it ran. Either way the object comes back within the
	// same episode.
	var early []Line
	var owes []owed
	var causes []string
	echoOnly := true
	var lastRV string
	watched := false // a watch line came, whose enqueue line is still to come
	start := func(kind EpisodeKind, l Line) {
		if cur != nil {
			cur.next = &l
		}
		cur = &episode{kind: kind, first: l}
		eps = append(eps, cur)
	}
	for i, l := range lines {
		if cur == nil {
			kind := EpisodeUnknown
			if l.Stage == stageWatch || l.Stage == stageEnqueue {
				kind = EpisodeCreate
			}
			start(kind, l)
		}
		trigger := l.Stage == stageWatch || l.Stage == stageEnqueue && !watched
		switch l.Stage {
		case stageWatch:
			watched = true
		case stageEnqueue:
			watched = false
		}
		switch {
		case trigger:
			// A watch line, or an enqueue no watch line came before (a
			// handler the patch did not log).
			inf, ev := l.KV[keyInformer], l.KV[keyEvent]
			name := watchName(inf, ev)
			if l.Stage == stageEnqueue {
				name = "an enqueue from a handler without a watch line"
			}
			if i := matchEcho(pending, l, inf); i >= 0 {
				c := pending[i].change
				pending = slices.Delete(pending, i, i+1)
				c.echoed = true
				echoed := fmt.Sprintf("the echo of %s (line %d)", describeWrites([]Line{c.write}), c.write.N)
				if inf == "" && l.Stage == stageWatch {
					// The line names no informer: the write says which
					// event it makes.
					if ev := locate.EventOf(c.write.KV[keyVerb]); ev != "" {
						echoed += ", a " + targetKind(c.write.KV[keyTarget]) + " " + ev
					}
				}
				causes = append(causes, name+": "+echoed)
				break
			}
			if now != nil && midPass(lines[i+1:]) {
				early = append(early, l)
				causes = append(causes, fmt.Sprintf("%s: during the pass at line %d (the echo of a write it logs after, or a change made while it ran)", name, now.dequeue.N))
				break
			}
			if len(cur.passes) > 0 {
				// The event names the episode when it is the object's
				// own; an event of something it owns is a change.
				kind := EpisodeChange
				switch {
				case l.Object != obj:
				case ev == eventAdd:
					kind = EpisodeCreate
				case ev == eventDelete:
					kind = EpisodeDelete
				}
				start(kind, l)
			}
			if len(cur.passes) == 0 {
				cur.watches++
				if inf != "" && !slices.Contains(cur.informers, inf) {
					cur.informers = append(cur.informers, inf)
				}
			}
			causes = append(causes, name+" from outside the controller")
			echoOnly = false
		case l.Stage == stageRequeue:
			if now == nil {
				break
			}
			now.requeue = l.KV[keyRequeue]
			why := "its requeue"
			switch now.requeue {
			case requeueRateLimited:
				now.failed = true
				why = fmt.Sprintf("the workqueue's rate-limited retry of the failed pass at line %d", now.dequeue.N)
			case requeueAfter:
				why = fmt.Sprintf("its requeue after %s (line %d)", l.KV[keyAfter], l.N)
			}
			if !slices.ContainsFunc(owes, func(o owed) bool { return o.by == now }) {
				owes = append(owes, owed{by: now, why: why})
			}
		case l.Stage == stageDequeue:
			if cur.kind == EpisodeCreate && len(eps) == 1 && len(cur.passes) == 0 && cur.first.N < j.firstDequeue && j.replayed(cur) {
				cur.kind = EpisodeReplay
			}
			if len(early) > 0 {
				// A watch line during the last pass that no write of
				// that pass explains came from outside.
				echoOnly, early = false, nil
			}
			p := &pass{dequeue: l}
			switch {
			case len(causes) > 0:
				p.cause, p.byEcho = strings.Join(causes, "; "), echoOnly
			case len(owes) > 0:
				o := owes[0]
				owes = owes[1:]
				p.cause, p.retry = o.why, o.by.failed
			case now != nil && !j.requeueLines:
				// A requeue the patch does not log: backoff (below)
				// tells a retry after an error from a requeue after a
				// delay.
				p.unlogged = true
				p.cause = "no watch line brought it: a requeue the patch does not log (a retry after an error, or a requeue after a delay)"
			default:
				p.cause = "no watch or requeue line brought it"
			}
			causes, echoOnly = nil, true
			now = p
			cur.passes = append(cur.passes, p)
		case l.Stage == stageRead:
			if now != nil {
				now.readRV = l.KV[keyResourceVersion]
				if cur.kind == EpisodeChange && cur.first.Object == obj && len(cur.passes) == 1 && lastRV != "" && now.readRV == lastRV {
					// The object's own update event, and it did not
					// change: the informer's resync.
					cur.kind = EpisodeResync
				}
				lastRV = now.readRV
			}
		case l.Stage == stageWrite:
			if now == nil {
				break
			}
			rv := l.KV[keyResourceVersion]
			switch {
			case l.KV[keyVerb] == locate.VerbRecord:
				now.events++
			case failed(l):
				now.failed = true
				now.failedWrites = append(now.failedWrites, l)
				if !slices.ContainsFunc(owes, func(o owed) bool { return o.by == now }) {
					owes = append(owes, owed{by: now, why: fmt.Sprintf("the workqueue's retry of the pass at line %d, whose %s", now.dequeue.N, describeWrites([]Line{l}))})
				}
			case !j.reenters(l):
				now.unwatched++
				if rv != "" && rv != now.readRV {
					now.moved++
				}
			case rv != "" && rv == now.readRV:
				now.noops++
			default:
				if rv != "" {
					now.moved++
				}
				c := &change{write: l}
				now.changes = append(now.changes, c)
				e := echo{change: c, kind: targetKind(l.KV[keyTarget])}
				if k := slices.IndexFunc(early, func(w Line) bool { return matchEcho([]echo{e}, w, w.KV[keyInformer]) == 0 }); k >= 0 {
					// Its echo came before the write's own line.
					early = slices.Delete(early, k, k+1)
					c.echoed = true
					break
				}
				pending = append(pending, e)
			}
		}
		if now != nil && !trigger && l.Stage != stageEnqueue {
			now.lines = append(now.lines, l)
		}
		cur.last = l
	}
	for _, e := range eps {
		backedOff(e.passes)
	}
	return eps
}

// midPass says whether a watch line came while a pass was still running:
// a read, write or requeue line of that pass comes after it, before the
// next dequeue.
func midPass(after []Line) bool {
	for _, l := range after {
		switch l.Stage {
		case stageDequeue:
			return false
		case stageRead, stageWrite, stageRequeue:
			return true
		}
	}
	return false
}

// backedOff reads the passes an unlogged requeue brought (in logs without
// requeue lines): when they come at growing gaps, at least two of them and
// the last gap at least twice the first, they are the rate limiter's
// retries, each after a pass that failed (with an error no write line
// shows). Steady gaps are a requeue after a delay.
func backedOff(passes []*pass) {
	var retried []int
	var gaps []time.Duration
	for i, p := range passes {
		if i > 0 && p.unlogged {
			retried = append(retried, i)
			gaps = append(gaps, p.dequeue.Time.Sub(passes[i-1].dequeue.Time))
		}
	}
	if !growing(gaps) {
		return
	}
	for _, i := range retried {
		passes[i-1].inferredFailed = true
		passes[i].retry = true
		passes[i].cause = fmt.Sprintf("no watch line brought it: the workqueue's rate-limited retry after the pass at line %d returned an error (a failure no write line shows; the gaps grow)", passes[i-1].dequeue.N)
	}
}

// growing says gaps grow as a rate limiter's backoff does: at least two,
// none shorter than the one before, the last at least twice the first.
func growing(gaps []time.Duration) bool {
	if len(gaps) < 2 || gaps[0] <= 0 {
		return false
	}
	for i := 1; i < len(gaps); i++ {
		if gaps[i] < gaps[i-1] {
			return false
		}
	}
	return gaps[len(gaps)-1] >= 2*gaps[0]
}

// replayed says an object's first episode is the startup replay: before its
// first pass, which comes before any pass of another object, more than one
// informer (or, without informer names, more than one watch line)
// delivered it: the object and what it owns, from the informers' initial
// lists, which a create does not have yet.
func (j *judge) replayed(e *episode) bool {
	if len(e.informers) > 0 {
		return len(e.informers) > 1
	}
	return e.watches > 1
}

// matchEcho finds the pending write a watch line is the event of: the
// oldest of the informer's kind (any, without informer names) within the
// echo window.
func matchEcho(pending []echo, l Line, informer string) int {
	for i, e := range pending {
		if informer != "" && e.kind != "" && informer != e.kind {
			continue
		}
		if w := e.change.write; !l.Time.IsZero() && !w.Time.IsZero() && l.Time.Sub(w.Time) > echoWindow {
			continue
		}
		return i
	}
	return -1
}

// reenters says a successful write may bring the object back: it is not an
// event record, and an informer of the controller watches its kind.
func (j *judge) reenters(l Line) bool {
	if l.KV[keyReenters] == "false" {
		return false
	}
	if j.opts.Watched != nil {
		return slices.Contains(j.opts.Watched, targetKind(l.KV[keyTarget]))
	}
	return true
}

// targetKind is the kind a write's target names: "Foo status" → Foo.
func targetKind(target string) string {
	k, _, _ := strings.Cut(target, " ")
	return k
}

// watchName names a watch line's informer and event, when it says them.
func watchName(informer, event string) string {
	switch {
	case informer != "" && event != "":
		return informer + " " + event
	case informer != "":
		return informer + " event"
	}
	return "a watch line"
}
