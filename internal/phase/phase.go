// Package phase measures the phases of one analysis (go list, parse,
// type-check, SSA, call graph, locators, report): the wall time each took
// and the heap it left. A clock travels in the context, so that the
// packages doing the work mark their phases without a parameter of their
// own; a context without one marks nothing.
package phase

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"
)

type reporterKey struct{}

type clockKey struct{}

// clock times the phases of one tree: each mark is the time since the
// previous one (or since Begin).
type clock struct {
	report func(string)
	label  string
	mu     sync.Mutex
	last   time.Time
}

// WithReport returns a context whose analyses report their phases, one line
// each, to report.
func WithReport(ctx context.Context, report func(string)) context.Context {
	return context.WithValue(ctx, reporterKey{}, report)
}

// Begin starts the clock of one analysis, named label in its lines, when
// ctx reports phases; the marks made under the returned context are timed
// from now.
func Begin(ctx context.Context, label string) context.Context {
	report, _ := ctx.Value(reporterKey{}).(func(string))
	if report == nil {
		return ctx
	}
	return context.WithValue(ctx, clockKey{}, &clock{report: report, label: label, last: time.Now()})
}

// Mark ends the current phase of ctx's analysis: its name, wall time, an
// optional detail (which way it went, what it holds), and the heap after it.
func Mark(ctx context.Context, name, detail string) {
	c, _ := ctx.Value(clockKey{}).(*clock)
	if c == nil {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	line := fmt.Sprintf("phase %s: %s: %.2f s, heap %d MiB (%d MiB from the OS)", c.label, name, now.Sub(c.last).Seconds(), ms.HeapAlloc>>20, ms.Sys>>20)
	if detail != "" {
		line += "; " + detail
	}
	c.report(line)
	c.last = now
}
