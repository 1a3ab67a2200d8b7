// Command deadlineflows runs the Job TTL controller; the Claim reconciler
// is registered with a manager by its SetupWithManager.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/clock"

	"example.com/fixtures/deadlineflows/internal/jobttl"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		os.Exit(1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	ttl := jobttl.New(client, factory.Batch().V1().Jobs(), clock.RealClock{})
	factory.Start(ctx.Done())
	ttl.Run(ctx)
}
