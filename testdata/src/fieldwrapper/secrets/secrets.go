// Package secrets is the function one binary hands the wrapper: it reads
// the Secret by the request's key.
package secrets

import (
	"context"
	"time"

	"example.com/fixtures/fieldwrapper/wrapper"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "SecretKeeper/condition-types" "SecretKeeper/drift"

// SecretKeeper checks a Secret's data.
type SecretKeeper struct{}

// Reconcile reads the Secret and waits for its data.
func (k *SecretKeeper) Reconcile(ctx context.Context, req ctrl.Request, w *wrapper.Wrapper) (ctrl.Result, error) { // want "SecretKeeper/reconcile-entry"
	var secret corev1.Secret
	if err := w.Get(ctx, req.NamespacedName, &secret); err != nil { // want "SecretKeeper/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "SecretKeeper/requeue-error"
	}
	if len(secret.Data) == 0 {
		return ctrl.Result{RequeueAfter: time.Minute}, nil // want "SecretKeeper/requeue-success" "SecretKeeper/trace:return" "SecretKeeper/trace:constant"
	}
	return ctrl.Result{}, nil
}
