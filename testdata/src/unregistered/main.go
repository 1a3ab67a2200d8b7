// Command leases runs reconcilers that register themselves by name in a
// table, from which the process starts the ones its flags name: which
// reconciler a controller runs is decided at run time.
package main

import (
	"flag"
	"os"
	"strings"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"example.com/fixtures/unregistered/leases"
)

func main() {
	names := flag.String("controllers", "", "comma-separated names of the controllers to run")
	flag.Parse()
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		os.Exit(1)
	}
	for _, name := range strings.Split(*names, ",") {
		make, ok := leases.Table[name]
		if !ok {
			os.Exit(2)
		}
		r := make(mgr.GetClient())
		if _, err := controllerFor(mgr, name, r); err != nil {
			os.Exit(1)
		}
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}

// controllerFor makes a controller for a reconciler; its watches are
// added by the reconciler's package when the process starts (not shown).
func controllerFor(mgr ctrl.Manager, name string, r reconcile.Reconciler) (controller.Controller, error) {
	return controller.New(name, mgr, controller.Options{Reconciler: r})
}
