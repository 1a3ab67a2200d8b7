// Package summarize patches an object at the end of a pass and hands back
// the result of the pass.
package summarize

import (
	"context"

	kerrors "k8s.io/apimachinery/pkg/util/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fluxcd/pkg/runtime/patch"

	"example.com/fixtures/deferresult/sresult"
)

// Options say what the pass reported.
type Options struct {
	Outcome sresult.Outcome
	Err     error
	Builder sresult.Builder
}

// Option sets one of the options.
type Option func(*Options)

// WithOutcome hands over the outcome of the pass.
func WithOutcome(o sresult.Outcome) Option { return func(opts *Options) { opts.Outcome = o } }

// WithError hands over the error of the pass.
func WithError(err error) Option { return func(opts *Options) { opts.Err = err } }

// WithBuilder hands over the builder of the runtime result.
func WithBuilder(b sresult.Builder) Option { return func(opts *Options) { opts.Builder = b } }

// Helper patches the object it is made for.
type Helper struct {
	patcher *patch.SerialPatcher
}

// NewHelper makes a Helper.
func NewHelper(p *patch.SerialPatcher) *Helper { return &Helper{patcher: p} }

// SummarizeAndPatch patches the object and hands back the result of the
// pass and its error.
func (h *Helper) SummarizeAndPatch(ctx context.Context, obj client.Object, options ...Option) (ctrl.Result, error) {
	opts := &Options{}
	for _, o := range options {
		o(opts)
	}
	var res ctrl.Result
	var recErr error
	var pOpts []patch.Option
	if opts.Builder != nil {
		pOpts, res, recErr = sresult.Compute(obj, opts.Outcome, opts.Err, opts.Builder)
	}
	if err := h.patcher.Patch(ctx, obj, pOpts...); err != nil { // want "write-always"
		recErr = kerrors.NewAggregate([]error{recErr, err})
	}
	return res, recErr // want "requeue-success" "requeue-error" "trace:return"
}
