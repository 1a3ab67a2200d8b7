// Package cmdqueue is a queue of commands of its own: Get hands out the
// next command, which stays in flight until Done is called with it.
package cmdqueue

import "sync"

// Queue holds the commands not yet handed out.
type Queue struct {
	mu       sync.Mutex
	cond     *sync.Cond
	items    []any
	inFlight map[any]bool
	closed   bool
}

// New makes an empty queue.
func New() *Queue {
	q := &Queue{inFlight: map[any]bool{}}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Insert queues a command.
func (q *Queue) Insert(item any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, item)
	q.cond.Signal()
}

// Get blocks until a command is queued, and hands it out; ok is false once
// the queue is closed.
func (q *Queue) Get() (item any, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if q.closed {
		return nil, false
	}
	item, q.items = q.items[0], q.items[1:]
	q.inFlight[item] = true
	return item, true
}

// Done says a handed-out command is finished.
func (q *Queue) Done(item any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.inFlight, item)
}

// Close wakes every Get, which returns ok false.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.cond.Broadcast()
}
