// Command secrets runs the wrapper with the Secret's function.
package main

import (
	"example.com/fixtures/fieldwrapper/secrets"
	"example.com/fixtures/fieldwrapper/wrapper"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	keeper := &secrets.SecretKeeper{}
	w := wrapper.New(mgr.GetClient(), wrapper.Config{Name: "secrets", For: &corev1.Secret{}, Reconcile: keeper.Reconcile})
	if err := w.Start(mgr); err != nil {
		panic(err)
	}
	r := &wrapper.Runner{Client: mgr.GetClient(), Name: "secrets-runner", For: &corev1.Secret{}, Work: secrets.SecretRunner{}}
	if err := r.Start(mgr); err != nil {
		panic(err)
	}
	st := &wrapper.Strategist{Client: mgr.GetClient(), Strategy: wrapper.Eager{}}
	if err := st.Start(mgr); err != nil {
		panic(err)
	}
	g := &wrapper.Gate{Name: "secrets-gate", For: &corev1.Secret{}, Pass: (&secrets.SecretGate{Client: mgr.GetClient()}).Pass}
	if err := g.Start(mgr); err != nil {
		panic(err)
	}
}
