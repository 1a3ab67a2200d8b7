package secrets

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "SecretRunner/finalizer-const" "SecretRunner/finalizer-add" "SecretRunner/finalizer-cleanup" "SecretRunner/finalizer-remove"
// want-none "SecretRunner/condition-types" "SecretRunner/requeue-success" "SecretRunner/interval-trace" "SecretRunner/drift"

// SecretRunner is the work one binary hands a runner.
type SecretRunner struct{}

// Run reads the Secret.
func (w SecretRunner) Run(ctx context.Context, req ctrl.Request, c client.Client) (ctrl.Result, error) { // want "SecretRunner/reconcile-entry"
	var secret corev1.Secret
	if err := c.Get(ctx, req.NamespacedName, &secret); err != nil { // want "SecretRunner/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "SecretRunner/requeue-error"
	}
	return ctrl.Result{}, nil
}
