package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "SecretAuditor/finalizer-const" "SecretAuditor/finalizer-add" "SecretAuditor/finalizer-cleanup" "SecretAuditor/finalizer-remove" "SecretAuditor/condition-types" "SecretAuditor/requeue-success" "SecretAuditor/interval-trace" "SecretAuditor/drift"

// SecretAuditor checks that a Secret holds a key. It means to look again
// later on the way out, but the result it stores into in a deferred
// closure is a local, not a named result: the return already handed back
// what the local held.
type SecretAuditor struct {
	client.Client
}

// Reconcile fails while the Secret lacks the key.
func (r *SecretAuditor) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SecretAuditor/reconcile-entry"
	res := ctrl.Result{}
	defer func(after time.Duration) {
		res.RequeueAfter = after
	}(time.Hour)

	s := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, s); err != nil { // want "SecretAuditor/reread"
		return res, client.IgnoreNotFound(err)
	}
	if _, ok := s.Data["token"]; !ok {
		return res, errMissing // want "SecretAuditor/requeue-error"
	}
	return res, nil
}

// errMissing says a Secret lacks its token.
var errMissing = missing("the Secret holds no token")

type missing string

func (m missing) Error() string { return string(m) }

// SetupWithManager registers the reconciler for Secrets.
func (r *SecretAuditor) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
