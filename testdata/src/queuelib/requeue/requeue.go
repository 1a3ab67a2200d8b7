// Package requeue stands for an organisation's own helper module around
// client-go's workqueue: the depqueue fixture uses it through a replace
// directive, so its bodies are a dependency's, never the tree's own.
package requeue

import (
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// Queue is the workqueue the helpers take.
type Queue = workqueue.TypedRateLimitingInterface[cache.ObjectName]

// Later forgets a key's failures and brings it back after a delay.
func Later(q Queue, key cache.ObjectName, after time.Duration) {
	q.Forget(key)
	schedule(q, key, after)
}

// schedule adds the key back after the delay.
func schedule(q Queue, key cache.ObjectName, after time.Duration) {
	q.AddAfter(key, after)
}

// Settle forgets a key's failures: it does not bring the key back.
func Settle(q Queue, key cache.ObjectName) {
	q.Forget(key)
}
