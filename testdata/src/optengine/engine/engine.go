// Package engine starts controllers while the program runs: each is made
// by controller-runtime from the options its caller builds out of
// functional options, applied to a struct the engine makes (the shape of
// crossplane's controller engine).
package engine

import (
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/controller"
)

// NewControllerFn makes a controller.
type NewControllerFn func(name string, o controller.Options) (controller.Controller, error)

// ControllerOptions are what a controller is started with.
type ControllerOptions struct {
	runtime controller.Options
	nc      NewControllerFn
}

// A ControllerOption sets some of them.
type ControllerOption func(*ControllerOptions)

// WithRuntimeOptions sets the options controller-runtime makes the
// controller with (its reconciler among them).
func WithRuntimeOptions(ko controller.Options) ControllerOption {
	return func(o *ControllerOptions) {
		o.runtime = ko
	}
}

// WithNewControllerFn replaces how the controller is made; nothing but a
// test would call it.
func WithNewControllerFn(fn NewControllerFn) ControllerOption {
	return func(o *ControllerOptions) {
		o.nc = fn
	}
}

// Engine keeps the controllers it started.
type Engine struct {
	mu      sync.Mutex
	running map[string]controller.Controller
}

// Start makes the named controller from the options it is handed.
func (e *Engine) Start(name string, o ...ControllerOption) error {
	co := &ControllerOptions{nc: controller.NewUnmanaged}
	for _, fn := range o {
		fn(co)
	}
	c, err := co.nc(name, co.runtime)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.running[name] = c
	return nil
}
