package stages

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// judged gives an episode its verdict.
func (j *judge) judged(e *episode) Episode {
	out := Episode{Kind: e.kind, From: e.first.N, To: e.last.N, Passes: len(e.passes), QuietMs: -1}
	for i, p := range e.passes {
		if p.wroteChange() {
			out.WritingPasses++
		}
		if p.retry {
			out.Retries++
		}
		if i > 0 {
			out.Reentries = append(out.Reentries, Reentry{Pass: i + 1, Line: p.dequeue.N, Cause: p.cause})
		}
	}
	quiet, timed := j.quiet(e)
	if timed {
		out.QuietMs = quiet.Milliseconds()
	}
	out.Verdict, out.Why = j.verdict(e, quiet, timed)
	return out
}

// quiet is how long the object stayed quiet after an episode: until the
// next episode's first line, or the end of the log.
func (j *judge) quiet(e *episode) (time.Duration, bool) {
	until := j.end
	if e.next != nil {
		until = e.next.Time
	}
	if e.last.Time.IsZero() || until.IsZero() {
		return 0, false
	}
	return max(until.Sub(e.last.Time), 0), true
}

func (j *judge) verdict(e *episode, quiet time.Duration, timed bool) (Verdict, string) {
	if len(e.passes) == 0 {
		return NoPass, "no STAGE/dequeue line for it: the worker never took its key"
	}
	last := e.passes[len(e.passes)-1]
	settle := j.opts.Settle
	what := tally(e.passes)
	quietFor := fmt.Sprintf("quiet for %s after its last line (log line %d)", round(quiet), e.last.N)
	if e.next != nil {
		quietFor += fmt.Sprintf(", until log line %d", e.next.N)
	} else {
		quietFor += ", until the log ends"
	}

	// An error loop: the last pass failed, or (without requeue lines)
	// fails the way the inferred failures before it did.
	lastFailed := last.failed
	if !lastFailed && !j.requeueLines {
		for _, p := range e.passes[:len(e.passes)-1] {
			if p.inferredFailed && p.shape() == last.shape() {
				lastFailed = true
			}
		}
	}
	if lastFailed {
		gaps := retryGaps(e.passes)
		var lastGap time.Duration
		if len(gaps) > 0 {
			lastGap = gaps[len(gaps)-1]
		}
		switch {
		case timed && quiet >= settle && len(gaps) > 0 && quiet > 2*lastGap:
			return Settles, fmt.Sprintf("its retries stopped: %s, more than twice the last retry gap of %s; %s", quietFor, round(lastGap), what)
		case len(gaps) > 0:
			return ErrorLoop, fmt.Sprintf("%d of its %d passes came back as the workqueue's retries after failures%s, and the last pass (dequeued at log line %d) failed too (%s): it keeps retrying while the failure lasts; %s", len(gaps), len(e.passes), backoff(gaps), last.dequeue.N, failure(last), what)
		case timed && quiet >= settle:
			return Settles, fmt.Sprintf("the last pass (dequeued at log line %d) failed (%s), and no retry came: %s, longer than the settle window of %s; the worker does not retry it; %s", last.dequeue.N, failure(last), quietFor, round(settle), what)
		}
		return NotSeenLongEnough, fmt.Sprintf("the last pass (dequeued at log line %d) failed (%s) and the object was %s: its retry may still come; %s", last.dequeue.N, failure(last), quietFor, what)
	}
	if timed && quiet >= settle {
		return Settles, fmt.Sprintf("%s, longer than the settle window of %s; %s", quietFor, round(settle), what)
	}
	awaiting := last.unechoed()
	if e.next != nil && (len(awaiting) == 0 || timed && quiet >= echoWindow) {
		return Settles, fmt.Sprintf("the last pass (dequeued at log line %d) wrote no change that comes back, and the object stayed %s, when something outside the controller changed it again; %s", last.dequeue.N, quietFor, what)
	}
	if hot := len(e.passes) >= 3 && slices.IndexFunc(e.passes[1:], func(p *pass) bool { return !p.byEcho }) < 0; hot {
		why := fmt.Sprintf("every pass after the first was brought back by the watch event of the previous pass's own write, and the last still writes (%s)", describeWrites(writes(last.changes)))
		if d := differing(e.passes); d != "" {
			why += "; " + d
		}
		return HotLoop, why + "; " + what
	}
	if !timed && len(awaiting) == 0 {
		return Settles, fmt.Sprintf("the last pass (dequeued at log line %d) wrote no change that comes back (the log has no timestamps to measure the quiet after it); %s", last.dequeue.N, what)
	}
	if !timed {
		return NotSeenLongEnough, fmt.Sprintf("the last pass (dequeued at log line %d) still writes (%s), and the log has no timestamps to measure the quiet after it; %s", last.dequeue.N, describeWrites(awaiting), what)
	}
	return NotSeenLongEnough, fmt.Sprintf("the object was %s, less than the settle window of %s; %s", quietFor, round(settle), what)
}

// writes are the write lines of changes.
func writes(cs []*change) []Line {
	var ls []Line
	for _, c := range cs {
		ls = append(ls, c.write)
	}
	return ls
}

// retryGaps are the gaps before each retry pass, from the pass before it.
func retryGaps(passes []*pass) []time.Duration {
	var gaps []time.Duration
	for i, p := range passes {
		if i > 0 && p.retry {
			gaps = append(gaps, p.dequeue.Time.Sub(passes[i-1].dequeue.Time))
		}
	}
	return gaps
}

// backoff describes retry gaps: growing gaps are the rate limiter's
// exponential backoff.
func backoff(gaps []time.Duration) string {
	if len(gaps) < 2 || gaps[0] <= 0 {
		return ""
	}
	if !growing(gaps) {
		return fmt.Sprintf(", at gaps of %s to %s", round(slices.Min(gaps)), round(slices.Max(gaps)))
	}
	return fmt.Sprintf(", at gaps growing from %s to %s (the rate limiter's exponential backoff, not a write that brings it back)", round(gaps[0]), round(gaps[len(gaps)-1]))
}

// failure says how a failed pass failed.
func failure(p *pass) string {
	switch {
	case len(p.failedWrites) > 0:
		return describeWrites(p.failedWrites)
	case p.requeue == requeueRateLimited:
		return "its requeue line says rate-limited"
	}
	return "it wrote what the failing passes wrote, " + p.shape()
}

// tally counts what an episode's passes did.
func tally(passes []*pass) string {
	var changes, noops, failures, events, unwatched, echoes, retries int
	for _, p := range passes {
		if p.wroteChange() {
			changes++
		}
		noops += p.noops
		for _, w := range p.unechoed() {
			if w.KV[keyResourceVersion] == "" {
				noops++ // no watch event followed: the server changed nothing
			}
		}
		failures += len(p.failedWrites)
		events += p.events
		unwatched += p.unwatched
		if p.byEcho {
			echoes++
		}
		if p.retry {
			retries++
		}
	}
	parts := []string{plural(len(passes), "pass", "passes")}
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, plural(n, one, many))
		}
	}
	add(changes, "wrote a change", "wrote a change")
	add(echoes, "brought back by the watch event of an own write", "brought back by the watch event of an own write")
	add(retries, "brought back by a retry", "brought back by a retry")
	add(noops, "no-op write (no watch event followed, or the resourceVersion did not move)", "no-op writes (no watch event followed, or the resourceVersion did not move)")
	add(failures, "failed write (it wrote nothing)", "failed writes (they wrote nothing)")
	add(unwatched, "write of a kind no informer watches", "writes of kinds no informer watches")
	add(events, "event record (no informer watches events)", "event records (no informer watches events)")
	return strings.Join(parts, ", ")
}

// plural counts n things.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// round prints a duration to the millisecond, or to a tenth of a second
// above one.
func round(d time.Duration) string {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
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
var routine = map[string]bool{keyVerb: true, keyTarget: true, keyErr: true, keyQueueLen: true, keyHandler: true,
	keyInformer: true, keyEvent: true, keyReenters: true, keyObjectRef: true, keyRequeue: true, keyAfter: true}

// differing names the fields of the STAGE lines whose value changes from
// pass to pass, resourceVersion last.
func differing(passes []*pass) string {
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
