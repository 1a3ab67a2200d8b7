package stages

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// Participant is a lane of the sequence diagram of one object's life.
type Participant struct {
	ID, Name string
}

// Message is one arrow of the diagram: from one lane to another (or the
// same), the stage it is (empty for an event of the API server, which
// cites nothing), what it does, and the site that does it.
type Message struct {
	From, To string
	Stage    string
	What     string
	Site     *locate.Site // nil for an event of the API server
	// Event says the arrow is an event the API server sends back because
	// of a write (drawn dashed).
	Event bool
}

// Sequence is one object's life through a client-go controller's stages:
// the lanes, the arrows in order, and the note that closes it. Mermaid and
// the HTML page draw it.
type Sequence struct {
	Participants []Participant
	Messages     []Message
	Note         string
}

// Life works out the sequence of one object's life from a controller's
// stage rows: added, watched, enqueued, dequeued, read and written; the
// worker's own requeues; and each write that an informer sees again and
// enqueues the owner for.
func Life(c locate.Controller) Sequence {
	kind := c.Kind
	if kind == "" {
		kind = "object"
	}
	seq := Sequence{Participants: []Participant{{"API", "API server"}, {"I0", kind + " informer"}, {"Q", "workqueue"}, {"S", "worker and sync"}}}
	informers := map[string]string{kind: "I0"}
	reentry := c.Stages[locate.StageReentry]
	var extra []Participant
	for _, s := range reentry.Sites {
		if typ, _, ok := strings.Cut(s.Name, " "); ok && s.Name != "" && informers[typ] == "" {
			informers[typ] = fmt.Sprintf("I%d", len(informers))
			extra = append(extra, Participant{informers[typ], typ + " informer"})
		}
	}
	seq.Participants = append(seq.Participants, extra...)
	seq.Messages = append(seq.Messages, Message{From: "API", To: "I0", What: kind + " added"})
	step := func(from, to, stage string, s locate.Site, what string) {
		seq.Messages = append(seq.Messages, Message{From: from, To: to, Stage: stage, What: what, Site: &s})
	}
	if r := c.Stages[locate.StageWatch]; len(r.Sites) > 0 {
		what := "AddFunc"
		for _, s := range r.Sites {
			if s.Name == "handler" {
				what += " → " + s.Func
			}
		}
		step("I0", "I0", stageWatch, r.Sites[0], what)
	}
	// A generated reconciler's enqueue in the tree ends in the dependency's
	// Add, cited after it: one arrow, at the tree's site.
	enq := c.Stages[locate.StageEnqueue].Sites
	own := slices.ContainsFunc(enq, func(s locate.Site) bool { return !inDependency(s) })
	for _, s := range enq {
		if !own || !inDependency(s) {
			step("I0", "Q", stageEnqueue, s, "Add key")
		}
	}
	if s, ok := c.Stages[locate.StageDequeue].Primary(); ok {
		step("Q", "S", stageDequeue, s, "Get key")
	}
	for _, s := range c.Stages[locate.StageRead].Sites {
		step("S", "I0", stageRead, s, "lister Get from the cache")
	}
	for _, s := range c.Stages[locate.StageWrite].Sites {
		if s.Name != "" {
			step("S", "API", stageWrite, s, s.Name)
		}
	}
	// The worker's own requeues: a re-add in the function that dequeues.
	if deq := c.Stages[locate.StageDequeue].Sites; len(deq) > 0 {
		for _, rq := range []struct{ row, what string }{
			{locate.RowRequeueError, "rate-limited after a failed pass"},
			{locate.RowRequeueSuccess, "after a delay"},
		} {
			// A generated reconciler's worker is the dependency's: its
			// requeues are those the hand-written code asks for.
			if s, ok := c.Rows[rq.row].Primary(); ok && (s.Func == deq[0].Func || c.Style == locate.StyleGenerated) {
				step("S", "Q", stageRequeue, s, rq.what)
			}
		}
	}
	for _, s := range reentry.Sites {
		typ, event, ok := strings.Cut(s.Name, " ")
		if !ok || s.Name == "" {
			continue
		}
		seq.Messages = append(seq.Messages, Message{From: "API", To: informers[typ], What: typ + " " + event + " event", Event: true})
		step(informers[typ], "Q", "re-entry", s, event+" handler enqueues the owner again")
	}
	seq.Note = "each re-entry or requeue is one more pass through dequeue, read and write. The object settles when a pass writes no change that comes back (event records and no-op writes bring nothing back); failed passes come back at growing gaps"
	return seq
}

// inDependency says whether a site is in a dependency's source
// (module@version/path), not in the tree.
func inDependency(s locate.Site) bool { return strings.Contains(s.File, "@") }
