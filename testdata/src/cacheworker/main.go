// Command runner runs two controllers whose workers read the object by the
// dequeued key themselves, through helpers of the tree.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"example.com/fixtures/cacheworker/pkg/flows"
	"example.com/fixtures/cacheworker/pkg/jobs"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := rest.InClusterConfig()
	if err != nil {
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		os.Exit(1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	f := flows.New(client, factory.Core().V1().ConfigMaps().Informer())
	j := jobs.New(client, factory.Batch().V1().Jobs().Informer())
	factory.Start(ctx.Done())
	go j.Run(ctx)
	f.Run(ctx)
}
