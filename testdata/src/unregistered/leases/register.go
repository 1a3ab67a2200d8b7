package leases

import (
	"os"
	"plugin"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// init registers the reconcilers a plugin file names, when one is set:
// what the table holds is known only when the process runs.
func init() {
	path := os.Getenv("LEASE_PLUGIN")
	if path == "" {
		return
	}
	p, err := plugin.Open(path)
	if err != nil {
		return
	}
	sym, err := p.Lookup("New")
	if err != nil {
		return
	}
	if make, ok := sym.(func(client.Client) reconcile.Reconciler); ok {
		Register("lease", make)
	}
}
