// Command configs runs the wrapper with the ConfigMap's function.
package main

import (
	"example.com/fixtures/fieldwrapper/configs"
	"example.com/fixtures/fieldwrapper/wrapper"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	keeper := &configs.ConfigKeeper{}
	w := wrapper.New(mgr.GetClient(), wrapper.Config{Name: "configs", For: &corev1.ConfigMap{}, Reconcile: keeper.Reconcile})
	if err := w.Start(mgr); err != nil {
		panic(err)
	}
	r := &wrapper.Runner{Client: mgr.GetClient(), Name: "configs-runner", For: &corev1.ConfigMap{}, Work: configs.ConfigRunner{}}
	if err := r.Start(mgr); err != nil {
		panic(err)
	}
	st := &wrapper.Strategist{Client: mgr.GetClient(), Strategy: wrapper.Lazy{}}
	if err := st.Start(mgr); err != nil {
		panic(err)
	}
	g := &wrapper.Gate{Name: "configs-gate", For: &corev1.ConfigMap{}, Pass: (&configs.ConfigGate{Client: mgr.GetClient()}).Pass}
	if err := g.Start(mgr); err != nil {
		panic(err)
	}
}
