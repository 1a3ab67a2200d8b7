// Command agent runs the agent's controllers, each behind the Controller
// interface, each with its own goroutine.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"sync"
	"syscall"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"example.com/fixtures/splitkeyworker/pkg/controllers"
	"example.com/fixtures/splitkeyworker/pkg/controllers/labeller"
	"example.com/fixtures/splitkeyworker/pkg/controllers/stamper"
)

// named is a controller with a name and a worker count.
type named struct {
	name       string
	controller controllers.Controller
	workers    int
}

func (n named) run(ctx context.Context, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		klog.InfoS("starting controller", "name", n.name)
		n.controller.Run(ctx, n.workers)
	}()
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.Parse()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	ctrls := []named{
		{name: labeller.ControllerName, controller: labeller.NewController(client, factory.Core().V1().ConfigMaps()), workers: 2},
		{name: stamper.ControllerName, controller: stamper.NewController(client, factory.Core().V1().Secrets()), workers: 1},
	}
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	for _, c := range ctrls {
		c.run(ctx, &wg)
	}
	wg.Wait()
}
