// Command syncers runs four operators on one shared Reconciler type.
package main

import (
	"context"
	"flag"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"example.com/fixtures/syncers/pkg/configmaps"
	"example.com/fixtures/syncers/pkg/pods"
	"example.com/fixtures/syncers/pkg/secrets"
	"example.com/fixtures/syncers/pkg/services"
	"example.com/fixtures/syncers/pkg/store"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig.")
	flag.Parse()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.Fatal(err)
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	factory := informers.NewSharedInformerFactory(client, 10*time.Minute)
	ctx := context.Background()
	s := secrets.New(client, factory.Core().V1().Secrets().Lister())
	c := configmaps.New(factory.Core().V1().ConfigMaps().Lister())
	p := pods.New(client)
	generic := func(resource string) *store.Informers {
		inf, err := factory.ForResource(corev1.SchemeGroupVersion.WithResource(resource))
		if err != nil {
			klog.Fatal(err)
		}
		return store.New(corev1.Resource(resource), inf.Lister())
	}
	v := services.New(client, generic("services"), generic("configmaps"))
	factory.Start(ctx.Done())
	go s.Run(ctx)
	go p.Run(ctx)
	go v.Run(ctx)
	c.Run(ctx)
}
