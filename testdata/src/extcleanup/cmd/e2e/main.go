// Command e2e runs the controller against a recorder, for the end-to-end
// suite.
package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/fixtures/extcleanup/controller"
	"example.com/fixtures/extcleanup/storage/e2e"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	r := &controller.BucketReconciler{Client: mgr.GetClient(), Buckets: &e2e.Recorder{}}
	if err := r.SetupWithManager(mgr); err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
