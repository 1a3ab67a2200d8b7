package main

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// delayer runs a function with a key once a delay has passed, one timer per
// key.
type delayer struct {
	run    func(string)
	mu     sync.Mutex
	timers map[string]*time.Timer
}

// newDelayer returns a delayer that hands each key to run when its delay
// is up.
func newDelayer(run func(string)) *delayer {
	return &delayer{run: run, timers: map[string]*time.Timer{}}
}

// After hands key to the delayer's function once delay has passed; a key
// already waiting waits again.
func (d *delayer) After(key string, delay time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t, ok := d.timers[key]; ok {
		t.Stop()
	}
	d.timers[key] = time.AfterFunc(delay, func() { d.run(key) })
}

// laterQueue takes a key to process later.
type laterQueue[K comparable] interface {
	Later(key K, delay time.Duration)
}

// clockQueue processes a key after a delay measured on a clock.
type clockQueue[K comparable] struct {
	clock   clock.Clock
	process func(K)
}

// Later processes key once delay has passed on the queue's clock.
func (q *clockQueue[K]) Later(key K, delay time.Duration) {
	waitThen(q.clock, delay, func() { q.process(key) })
}

// waitThen calls then once the clock's timer for delay fires.
func waitThen(c clock.Clock, delay time.Duration, then func()) {
	t := c.NewTimer(delay)
	go func() {
		<-t.C()
		then()
	}()
}
