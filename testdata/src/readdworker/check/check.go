// Package check probes Nodes and reports an unreachable one as an event.
package check

import (
	"context"
	"fmt"
	"net"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
)

// Checker dials a Node's kubelet port.
type Checker struct {
	recorder record.EventRecorder
}

// NewChecker returns a checker that records on recorder.
func NewChecker(recorder record.EventRecorder) *Checker {
	return &Checker{recorder: recorder}
}

// Probe dials the Node's first internal address and records a warning
// when it does not answer.
func (c *Checker) Probe(ctx context.Context, node *corev1.Node) error {
	for _, addr := range node.Status.Addresses {
		if addr.Type != corev1.NodeInternalIP {
			continue
		}
		d := net.Dialer{Timeout: 5 * time.Second}
		conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(addr.Address, "10250"))
		if err != nil {
			c.recorder.Eventf(node, corev1.EventTypeWarning, "Unreachable", "kubelet port: %v", err)
			return err
		}
		return conn.Close()
	}
	return fmt.Errorf("node %s has no internal address", node.Name)
}
