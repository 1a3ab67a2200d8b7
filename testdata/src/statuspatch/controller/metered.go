package controller

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/statuspatch/api/v1"
)

// want-none "MeteredReconciler/finalizer-const" "MeteredReconciler/finalizer-add" "MeteredReconciler/finalizer-cleanup" "MeteredReconciler/finalizer-remove" "MeteredReconciler/requeue-success" "MeteredReconciler/interval-trace" "MeteredReconciler/drift"

// gadgetConditions exports which conditions each Gadget holds.
var gadgetConditions = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "gadget_condition"}, []string{"namespace", "name", "type"})

// MeteredReconciler labels each Gadget, then saves its status, the last
// return handing back the error the save hands back. The save exports the
// conditions as metrics first, which changes nothing the cluster holds:
// its error is the status write's, after the work succeeded, so the
// main work's failure is the label's.
type MeteredReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *MeteredReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{}).Named("gadget-metered").Complete(r)
}

// Reconcile labels the Gadget and saves its status.
func (r *MeteredReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MeteredReconciler/reconcile-entry"
	var g v1.Gadget
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "MeteredReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g.Labels = map[string]string{"metered": "yes"}
	if err := r.Update(ctx, &g); err != nil { // want "MeteredReconciler/write-always"
		return ctrl.Result{}, err // want "MeteredReconciler/requeue-error"
	}
	setCondition(&g.Status.Conditions, metav1.Condition{Type: v1.GadgetReady, Status: metav1.ConditionTrue, Reason: "Labelled"}) // want "MeteredReconciler/condition-set:Ready"
	err := r.save(ctx, &g)
	return ctrl.Result{}, err
}

// save exports the Gadget's conditions and writes its status.
func (r *MeteredReconciler) save(ctx context.Context, g *v1.Gadget) error {
	export(g)
	return r.Status().Update(ctx, g) // want "MeteredReconciler/write-always"
}

// export sets one series per condition: 1 when it holds.
func export(g *v1.Gadget) {
	for _, c := range g.Status.Conditions {
		holds := 0.0
		if c.Status == metav1.ConditionTrue {
			holds = 1
		}
		gadgetConditions.WithLabelValues(g.Namespace, g.Name, c.Type).Set(holds)
	}
}
