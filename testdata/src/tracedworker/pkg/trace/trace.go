// Package trace times the work done on one key: both controllers' workers
// hand it every key they take off their queues.
package trace

import (
	"sync"
	"time"

	"k8s.io/klog/v2"
)

// Tracer keeps when the work on each key started.
type Tracer struct {
	mu      sync.Mutex
	started map[string]time.Time
}

// StartTrace notes that the work on key begins.
func (t *Tracer) StartTrace(key, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.started == nil {
		t.started = map[string]time.Time{}
	}
	t.started[key] = time.Now()
	klog.V(4).Infof("%s: %s started", name, key)
}

// StopTrace logs how long the work on key took.
func (t *Tracer) StopTrace(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	klog.V(4).Infof("%s took %s", key, time.Since(t.started[key]))
	delete(t.started, key)
}
