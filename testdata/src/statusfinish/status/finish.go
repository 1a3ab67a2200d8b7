// Package status ends a pass: it writes the Deployment's status and
// records an event, whatever the pass did, and hands back the result.
package status

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Finish writes the outcome of a pass to the Deployment's status. A pass
// that failed writes its failure and returns its error (or a new one when
// the write fails); every other pass writes the observed generation and
// records that it did, then returns what the status write returned.
func Finish(ctx context.Context, c client.Client, rec record.EventRecorder, dep *appsv1.Deployment, reconcileErr error) (ctrl.Result, error) {
	changed := dep.DeepCopy()
	changed.Status.ObservedGeneration = changed.Generation
	if reconcileErr != nil {
		if err := c.Status().Patch(ctx, changed, client.MergeFrom(dep)); err != nil { // decoy: write-always (a failed pass only)
			return ctrl.Result{}, fmt.Errorf("writing the failure of %s: %w", dep.Name, err)
		}
		rec.Event(dep, corev1.EventTypeWarning, "Failed", reconcileErr.Error()) // decoy: write-always (a failed pass only)
		return ctrl.Result{}, reconcileErr                                      // want "requeue-error"
	}
	statusErr := c.Status().Patch(ctx, changed, client.MergeFrom(dep)) // want "write-always"
	rec.Event(dep, corev1.EventTypeNormal, "Synced", "status written") // want "write-always"
	return ctrl.Result{}, statusErr
}
