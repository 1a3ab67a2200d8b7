// Package configs is the function another binary hands the wrapper: it
// reads the ConfigMap by the request's key.
package configs

import (
	"context"
	"errors"

	"example.com/fixtures/fieldwrapper/wrapper"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ConfigKeeper/condition-types" "ConfigKeeper/requeue-success" "ConfigKeeper/interval-trace" "ConfigKeeper/drift"

// ConfigKeeper checks a ConfigMap's data.
type ConfigKeeper struct{}

// Reconcile reads the ConfigMap and fails while it is empty.
func (k *ConfigKeeper) Reconcile(ctx context.Context, req ctrl.Request, w *wrapper.Wrapper) (ctrl.Result, error) { // want "ConfigKeeper/reconcile-entry"
	var cm corev1.ConfigMap
	if err := w.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigKeeper/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(cm.Data) == 0 {
		return ctrl.Result{}, errors.New("empty") // want "ConfigKeeper/requeue-error"
	}
	return ctrl.Result{}, nil
}
