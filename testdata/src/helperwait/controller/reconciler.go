// Package controller holds a reconciler whose only timed requeues are
// waits: one on an older copy still being deleted, one right after a
// helper of its own made a new copy. The latter is the wait a success
// makes: the helper's write succeeded just before it.
package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

const (
	// pollDelay is how often a copy being deleted is looked at again.
	pollDelay = 2 * time.Second
	// pickupDelay is how long a new copy is given to be picked up.
	pickupDelay = 5 * time.Second // want "trace:constant"
)

// IssueReconciler issues a ConfigMap copy of each Secret that has none.
type IssueReconciler struct {
	client.Client
}

// Setup registers the reconciler.
func Setup(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Owns(&corev1.ConfigMap{}).Complete(&IssueReconciler{Client: mgr.GetClient()})
}

// Reconcile waits for old copies to go, issues a copy when there is none
// and waits for it; a Secret with a copy needs nothing.
func (r *IssueReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	sec := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, sec); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := validateKeys(sec); err != nil {
		var empty *emptyKeyError
		if errors.As(err, &empty) {
			if saveErr := r.markInvalid(ctx, sec, err); saveErr != nil {
				return ctrl.Result{}, saveErr
			}
			return ctrl.Result{RequeueAfter: pollDelay}, nil // decoy: requeue-success (a retry after a failure the helper recorded)
		}
		return ctrl.Result{}, err
	}
	copies := &corev1.ConfigMapList{}
	if err := r.List(ctx, copies, client.InNamespace(sec.Namespace), client.MatchingLabels{"copy-of": sec.Name}); err != nil {
		return ctrl.Result{}, err
	}
	for i := range copies.Items {
		if !copies.Items[i].DeletionTimestamp.IsZero() {
			return ctrl.Result{RequeueAfter: pollDelay}, nil // decoy: requeue-success (a wait on a copy being deleted, no work done)
		}
	}
	if len(copies.Items) == 0 {
		issued, err := r.issue(ctx, sec)
		if err != nil {
			return ctrl.Result{}, err // want "requeue-error"
		}
		ctrl.LoggerFrom(ctx).Info("issued copy", "name", issued.Name)
		return ctrl.Result{RequeueAfter: pickupDelay}, nil // want "requeue-success" "trace:return"
	}
	return ctrl.Result{}, nil
}

// issue makes a copy of the Secret's keys.
func (r *IssueReconciler) issue(ctx context.Context, sec *corev1.Secret) (*corev1.ConfigMap, error) {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:    sec.Namespace,
			GenerateName: sec.Name + "-copy-",
			Labels:       map[string]string{"copy-of": sec.Name},
		},
		Data: map[string]string{},
	}
	for k := range sec.Data {
		cm.Data[k] = "present"
	}
	if err := r.Create(ctx, cm); err != nil {
		return nil, fmt.Errorf("issuing copy of %s: %w", sec.Name, err)
	}
	return cm, nil
}

// emptyKeyError says a key of the Secret holds no value.
type emptyKeyError struct{ key string }

func (e *emptyKeyError) Error() string { return "key " + e.key + " is empty" }

// validateKeys fails for a Secret with an empty key.
func validateKeys(sec *corev1.Secret) error {
	for k, v := range sec.Data {
		if len(v) == 0 {
			return &emptyKeyError{key: k}
		}
	}
	return nil
}

// markInvalid records on the Secret why it cannot be copied.
func (r *IssueReconciler) markInvalid(ctx context.Context, sec *corev1.Secret, cause error) error {
	if sec.Annotations == nil {
		sec.Annotations = map[string]string{}
	}
	sec.Annotations["example.com/invalid"] = cause.Error()
	return r.Update(ctx, sec)
}
