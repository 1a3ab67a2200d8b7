package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ReportReconciler/finalizer-const" "ReportReconciler/finalizer-add" "ReportReconciler/finalizer-cleanup" "ReportReconciler/finalizer-remove" "ReportReconciler/condition-types" "ReportReconciler/drift"
// want-none "ReportReconciler/requeue-success" "ReportReconciler/interval-trace"

// ReportReconciler records each pass over a Service, in a function it
// defers, in a ConfigMap that its settings name. The pass ends in that
// function, as in a tail call: its early return under a test of the
// settings is not the steady state's, and the write is made on every pass.
type ReportReconciler struct {
	client.Client
	ReportName, Namespace string
}

// Reconcile reads the Service and reports the pass.
func (r *ReportReconciler) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) { // want "ReportReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "ReportReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "ReportReconciler/requeue-error"
	}
	defer func() {
		if rerr := r.report(ctx, &svc); rerr != nil && err == nil {
			err = rerr
		}
	}()
	return ctrl.Result{}, nil
}

// report applies the report ConfigMap, when the settings name one.
func (r *ReportReconciler) report(ctx context.Context, svc *corev1.Service) error {
	if r.ReportName == "" {
		return nil
	}
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: r.Namespace, Name: r.ReportName},
		Data:       map[string]string{"last": svc.Namespace + "/" + svc.Name, "at": metav1.Now().String()},
	}
	return r.Patch(ctx, cm, client.Apply, client.FieldOwner("report"), client.ForceOwnership) // want "ReportReconciler/write-always" "ReportReconciler/hot-loop"
}

// SetupReport registers the reconciler.
func SetupReport(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("report").For(&corev1.Service{}).Complete(&ReportReconciler{Client: mgr.GetClient(), ReportName: "passes", Namespace: "default"})
}
