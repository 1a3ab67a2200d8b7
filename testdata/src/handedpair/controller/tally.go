package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "TallyReconciler/finalizer-const" "TallyReconciler/finalizer-add" "TallyReconciler/finalizer-cleanup" "TallyReconciler/finalizer-remove" "TallyReconciler/condition-types" "TallyReconciler/drift" "TallyReconciler/requeue-success" "TallyReconciler/interval-trace"

// TallyReconciler keeps a Service Account beside each Secret and records
// an event of each failed pass.
type TallyReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile runs the pass and reports it.
func (r *TallyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TallyReconciler/reconcile-entry"
	res, secret, err := r.pass(ctx, req)
	return tally(r.Recorder, &secret, res, err)
}

// pass makes the Secret's Service Account, labelled after it.
func (r *TallyReconciler) pass(ctx context.Context, req ctrl.Request) (ctrl.Result, corev1.Secret, error) {
	secret := corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "TallyReconciler/reread"
		return ctrl.Result{}, secret, client.IgnoreNotFound(err)
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: secret.Namespace, Name: secret.Name}}
	if err := r.Create(ctx, sa); client.IgnoreAlreadyExists(err) != nil { // want "TallyReconciler/write-always"
		return ctrl.Result{}, secret, err // want "TallyReconciler/requeue-error"
	}
	return ctrl.Result{}, secret, nil
}

// tally records a failed pass as an event and, when the pass asked for a
// requeue beside its failure, hands back that request alone.
func tally(rec record.EventRecorder, secret *corev1.Secret, res ctrl.Result, err error) (ctrl.Result, error) {
	if err != nil {
		rec.Event(secret, corev1.EventTypeWarning, "Failed", err.Error())
		if !res.IsZero() {
			return res, nil
		}
	}
	return res, err
}

// SetupWithManager registers the reconciler for Secrets.
func (r *TallyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("tally").For(&corev1.Secret{}).Owns(&corev1.ServiceAccount{}).Complete(r)
}
