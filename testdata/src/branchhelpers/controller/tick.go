package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// watchInterval is how often a ConfigMap seen is looked at again.
const watchInterval = 5 * time.Minute // want "TickReconciler/trace:constant"

// want-none "TickReconciler/finalizer-const" "TickReconciler/finalizer-add" "TickReconciler/finalizer-cleanup" "TickReconciler/finalizer-remove" "TickReconciler/condition-types"

// TickReconciler keeps a marker ConfigMap beside each ConfigMap, marks
// each seen once, then records each pass over a ConfigMap already seen
// and looks again later.
type TickReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile hands the pass over a ConfigMap already seen to a helper.
func (r *TickReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TickReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "TickReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	marker := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-tick"}}
	if err := r.Create(ctx, marker); client.IgnoreAlreadyExists(err) != nil { // want "TickReconciler/write-always"
		return ctrl.Result{}, err // want "TickReconciler/requeue-error"
	}
	if cm.Annotations["seen"] == "true" { // want "TickReconciler/drift:compare"
		return r.watch(cm)
	}
	cm.Annotations = map[string]string{"seen": "true"}
	return ctrl.Result{}, r.Update(ctx, cm) // want "TickReconciler/drift:apply"
}

// watch records the pass and looks again after the interval.
func (r *TickReconciler) watch(cm *corev1.ConfigMap) (ctrl.Result, error) {
	r.Recorder.Event(cm, corev1.EventTypeNormal, "Watched", "looked at the ConfigMap") // want "TickReconciler/write-always"
	return ctrl.Result{RequeueAfter: watchInterval}, nil                               // want "TickReconciler/requeue-success" "TickReconciler/trace:return"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *TickReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("tick").For(&corev1.ConfigMap{}).Complete(r)
}
