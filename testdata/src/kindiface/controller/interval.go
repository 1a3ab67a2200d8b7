// Package controller holds a reconciler whose requeue helper takes the
// object as an interface of the tree's own, which the primary type
// implements with a method of its own: a test of that value is a test of
// the object, so the interval it guards is the object's own, not a wait.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// childWait is how long the reconciler gives a Secret it waits for.
const childWait = 10 * time.Second

// Periodic is what the requeue helper needs of an object.
type Periodic interface {
	client.Object
	Period() time.Duration
}

// Polled is the primary object: a ConfigMap that says how often to look.
type Polled struct {
	corev1.ConfigMap
}

// Period is the object's own period: a second per entry of its data.
func (p *Polled) Period() time.Duration {
	return time.Duration(len(p.Data)) * time.Second // want "trace:computed" "trace:constant"
}

// DeepCopyObject keeps Polled a runtime.Object of its own.
func (p *Polled) DeepCopyObject() runtime.Object {
	c := *p
	return &c
}

// PollReconciler looks at a Polled object as often as it says.
type PollReconciler struct {
	client.Client
}

// Reconcile waits for the object's Secret, then requeues after the
// object's period.
func (r *PollReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	p := &Polled{}
	if err := r.Get(ctx, req.NamespacedName, p); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var s corev1.Secret
	if err := r.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: p.Name}, &s); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	if len(s.Data) == 0 {
		return ctrl.Result{RequeueAfter: childWait}, nil
	}
	return requeueResult(p)
}

// requeueResult requeues after the object's period when it sets one.
func requeueResult(o Periodic) (ctrl.Result, error) {
	if o.Period() > 0 {
		return ctrl.Result{RequeueAfter: o.Period()}, nil // want "requeue-success" "trace:return"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler.
func (r *PollReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&Polled{}).Complete(r)
}
