// Package controller holds three reconcilers of Tickers. The revision
// reconciler keeps one ConfigMap per Ticker period: a pass that finds the
// revision up to date logs and returns early (the steady state of an
// unchanged Ticker, so the create past it is no every-pass write), while
// a suspended Ticker's early return tests its Spec alone (not the steady
// state). Its drift is a child's field compared with the desired period,
// equal ones skipped by a continue; a precondition that fails the pass is
// no drift.
// The poll reconciler requeues after the least of its own setting and the
// Ticker's period, each traced. The mirror reconciler compares in an
// else-if, on a bool its predicate hands back beside another result.
package controller

import (
	"context"
	"errors"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "RevisionReconciler/finalizer-const" "RevisionReconciler/finalizer-add" "RevisionReconciler/finalizer-cleanup" "RevisionReconciler/finalizer-remove" "RevisionReconciler/condition-types" "RevisionReconciler/requeue-success" "RevisionReconciler/interval-trace"

// RevisionReconciler keeps a ConfigMap holding each Ticker's period.
type RevisionReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile creates the Ticker's revision ConfigMap unless one is up to
// date, and brings the period of those of its hash up to date.
func (r *RevisionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RevisionReconciler/reconcile-entry"
	log := ctrl.LoggerFrom(ctx)
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "RevisionReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.Spec.Suspend {
		log.Info("suspended")
		return ctrl.Result{}, nil
	}
	r.Recorder.Event(obj, corev1.EventTypeNormal, "Checked", "revisions checked") // want "RevisionReconciler/write-always"

	hash := strconv.FormatInt(obj.Spec.PeriodSeconds, 16)
	if obj.Labels["revision"] != hash {
		metav1.SetMetaDataLabel(&obj.ObjectMeta, "revision", hash)
		if err := r.Update(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}

	var list corev1.ConfigMapList
	if err := r.List(ctx, &list, client.InNamespace(obj.Namespace), client.MatchingLabels{"ticker": obj.Name}); err != nil {
		return ctrl.Result{}, err
	}
	if len(list.Items) > 0 && list.Items[0].Namespace != obj.Namespace { // decoy: drift:compare (a precondition whose branch fails the pass)
		return ctrl.Result{}, errors.New("revision outside the Ticker's namespace")
	}
	period := strconv.FormatInt(obj.Spec.PeriodSeconds, 10)
	var current *corev1.ConfigMap
	for i := range list.Items {
		cm := &list.Items[i]
		if cm.Data["period"] == period { // want "RevisionReconciler/drift:compare"
			current = cm
			continue
		}
		cm.Data["period"] = period
		if err := r.Update(ctx, cm); err != nil { // want "RevisionReconciler/drift:apply"
			return ctrl.Result{}, err
		}
	}
	if current != nil {
		log.Info("revision up to date")
		return ctrl.Result{}, nil
	}

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: obj.Namespace, GenerateName: obj.Name + "-",
		Labels: map[string]string{"ticker": obj.Name}}, Data: map[string]string{"period": period}}
	if err := r.Create(ctx, cm); err != nil { // decoy: write-always (an unchanged Ticker's pass ends at the early return above)
		return ctrl.Result{}, err // want "RevisionReconciler/requeue-error"
	}
	r.Recorder.Event(obj, corev1.EventTypeNormal, "Created", "revision created") // decoy: write-always
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Tickers.
func (r *RevisionReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
