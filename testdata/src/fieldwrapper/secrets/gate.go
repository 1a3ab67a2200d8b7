package secrets

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "SecretGate/finalizer-const" "SecretGate/finalizer-add" "SecretGate/finalizer-cleanup" "SecretGate/finalizer-remove"
// want-none "SecretGate/condition-types" "SecretGate/requeue-error" "SecretGate/requeue-success" "SecretGate/interval-trace" "SecretGate/drift"

// SecretGate passes Secrets through a gate.
type SecretGate struct {
	client.Client
}

// Pass reads the Secret.
func (g *SecretGate) Pass(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SecretGate/reconcile-entry"
	var secret corev1.Secret
	if err := g.Get(ctx, req.NamespacedName, &secret); err != nil { // want "SecretGate/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, nil
}
