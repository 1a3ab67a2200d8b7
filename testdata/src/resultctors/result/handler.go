package result

import (
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
)

// Handler hands back the results a reconciler's passes end with, fixed
// when it is made: the wait between polls, and the wait after a failure.
type Handler struct {
	poll, retry ctrl.Result
}

// NewHandler makes a Handler that polls every poll and retries a failure
// after retry.
func NewHandler(poll, retry time.Duration) *Handler {
	return &Handler{poll: ctrl.Result{RequeueAfter: poll}, retry: ctrl.Result{RequeueAfter: retry}}
}

// Poll ends a pass that succeeded, asking for the key again later.
func (h *Handler) Poll() (ctrl.Result, error) {
	return h.poll, nil
}

// Retry hands back a failure (the wait is dropped when err is not nil).
func (h *Handler) Retry(err error) (ctrl.Result, error) {
	return h.retry, err
}

// Stop ends a pass that needs nothing more.
func (h *Handler) Stop() (ctrl.Result, error) {
	return ctrl.Result{}, nil
}
