// Command timerqueue runs controllers that look at their objects again
// after a delay through a timer of their own: the ConfigMaps' through
// time.AfterFunc, the Secrets' through a clock's timer it waits on, the
// ServiceAccounts' (whose worker reads the object and hands it to a handler)
// while it waits for a ConfigMap.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// refreshInterval is how long the refresher waits before it looks at a
// ConfigMap again.
const refreshInterval = 10 * time.Minute // want "ConfigMapRefresher/trace:constant"

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	refresher := NewConfigMapRefresher(client, factory.Core().V1().ConfigMaps(), refreshInterval)
	rotator := NewSecretRotator(client, factory.Core().V1().Secrets(), clock.RealClock{})
	marker := NewAccountMarker(factory.Core().V1().ServiceAccounts(), factory.Core().V1().ConfigMaps(), os.Getenv("READ_ONLY") != "")
	factory.Start(ctx.Done())
	go refresher.Run(ctx)
	go marker.Run(ctx)
	rotator.Run(ctx)
}
