// Command shelf-controller runs the Shelf controller.
package main

import (
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	shelfv1 "example.com/fixtures/closureread/api/v1"
	"example.com/fixtures/closureread/internal/controller"
)

func main() {
	scheme := runtime.NewScheme()
	if err := shelfv1.SchemeBuilder.AddToScheme(scheme); err != nil {
		os.Exit(1)
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme})
	if err != nil {
		os.Exit(1)
	}
	r := &controller.ShelfReconciler{Client: mgr.GetClient(), Reader: mgr.GetAPIReader()}
	if err := r.SetupWithManager(mgr); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
