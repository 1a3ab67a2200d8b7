// Command storage-controller runs the Volume and Pool controllers.
package main

import (
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	storagev1 "example.com/fixtures/finbranches/api/v1"
	"example.com/fixtures/finbranches/internal/controller"
)

func main() {
	scheme := runtime.NewScheme()
	if err := storagev1.SchemeBuilder.AddToScheme(scheme); err != nil {
		os.Exit(1)
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme})
	if err != nil {
		os.Exit(1)
	}
	if err := (&controller.VolumeReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := (&controller.PoolReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := controller.SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
