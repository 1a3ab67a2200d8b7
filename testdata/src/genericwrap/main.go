// Command keeper runs one generic reconciler per kind, each wrapping a
// handler of its own: the ConfigMap's requeues after an interval, the
// Secret's removes a finalizer. The searches read the wrapper's syntax,
// which its instances share: every row but the entry and the re-read is
// not settled, never the other instance's answer.
package main

import (
	"context"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"example.com/fixtures/genericwrap/wrap"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-error" "requeue-success" "interval-trace" "drift"

const holdFinalizer = "example.com/hold"

// configMaps requeues every ConfigMap after a minute.
type configMaps struct{}

func (configMaps) New() *corev1.ConfigMap { return &corev1.ConfigMap{} }

func (configMaps) Handle(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, error) {
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

// secrets lets go of Secrets being deleted.
type secrets struct{ client client.Client }

func (secrets) New() *corev1.Secret { return &corev1.Secret{} }

func (s secrets) Handle(ctx context.Context, sec *corev1.Secret) (ctrl.Result, error) {
	if sec.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	if controllerutil.RemoveFinalizer(sec, holdFinalizer) {
		return ctrl.Result{}, s.client.Update(ctx, sec)
	}
	return ctrl.Result{}, nil
}

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		os.Exit(1)
	}
	cms := wrap.New[*corev1.ConfigMap](mgr.GetClient(), configMaps{})
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("configmaps").Complete(cms); err != nil {
		os.Exit(1)
	}
	secs := wrap.New[*corev1.Secret](mgr.GetClient(), secrets{client: mgr.GetClient()})
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Named("secrets").Complete(secs); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
