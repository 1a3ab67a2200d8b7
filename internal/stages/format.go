package stages

import "github.com/ctrlcmp/ctrlcmp/internal/locate"

// The STAGE log format: one klog line per stage, its message the tag
// STAGE/<stage>, its values under the keys below. The probes write it and
// ReadLog reads it; both take every name from here.
const tagPrefix = "STAGE/"

// The stages as the log names them, in the order an object meets them.
const (
	stageWatch   = "watch"
	stageEnqueue = "enqueue"
	stageDequeue = "dequeue"
	stageRead    = "read"
	stageWrite   = "write"
	// stageRequeue is the sixth line: the worker puts a key back (after a
	// failed pass, or a pass that asks to come back later).
	stageRequeue = "requeue"
)

var stageNames = []string{stageWatch, stageEnqueue, stageDequeue, stageRead, stageWrite, stageRequeue}

// logStage maps locate's stage rows to the stage names of the log.
var logStage = map[string]string{
	locate.StageWatch:    stageWatch,
	locate.StageEnqueue:  stageEnqueue,
	locate.StageDequeue:  stageDequeue,
	locate.StageRead:     stageRead,
	locate.StageWrite:    stageWrite,
	locate.AnchorRequeue: stageRequeue,
}

// The keys of a STAGE line.
const (
	keyHandler         = "handler"
	keyObject          = "object"
	keyKey             = "key"
	keyQueueLen        = "queueLen"
	keyResourceVersion = "resourceVersion"
	keyVerb            = "verb"
	keyTarget          = "target"
	keyErr             = "err"
	// keyInformer and keyEvent name, on a watch line, the kind of the
	// informer that fired and its event (add, update, delete).
	keyInformer = "informer"
	keyEvent    = "event"
	// keyReenters, on a write line, is "false" when no informer of the
	// controller watches the written kind: the write never brings the
	// object back.
	keyReenters = "reenters"
	// keyRequeue, on a requeue line, says which requeue: rate-limited
	// (after a failure), after (a delay, in keyAfter), or now.
	keyRequeue = "requeue"
	keyAfter   = "after"
	// keyObjectRef is the object a controller's own logger may carry as a
	// context value (sample-controller's sync does).
	keyObjectRef = "objectRef"
)

// The events of a watch line.
const (
	eventAdd    = "add"
	eventUpdate = "update"
	eventDelete = "delete"
)

// The values of a requeue line's requeue key.
const (
	requeueRateLimited = "rate-limited"
	requeueAfter       = "after"
	requeueNow         = "now"
)

// tag is the message of a stage's line: STAGE/watch … STAGE/write.
func tag(stage string) string { return tagPrefix + stage }
