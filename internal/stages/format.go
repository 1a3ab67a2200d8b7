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
)

var stageNames = []string{stageWatch, stageEnqueue, stageDequeue, stageRead, stageWrite}

// logStage maps locate's stage rows to the stage names of the log.
var logStage = map[string]string{
	locate.StageWatch:   stageWatch,
	locate.StageEnqueue: stageEnqueue,
	locate.StageDequeue: stageDequeue,
	locate.StageRead:    stageRead,
	locate.StageWrite:   stageWrite,
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
)

// tag is the message of a stage's line: STAGE/watch … STAGE/write.
func tag(stage string) string { return tagPrefix + stage }
