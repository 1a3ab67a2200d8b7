package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// fullQueue is a loopback address that never takes a connection: its
// listener never accepts and its queue (of one, from listen(2) with a
// backlog of 0) is held full, so Linux drops every further SYN and a
// connection attempt waits as it would for an unreachable host.
func fullQueue(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
	filler, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { filler.Close() })
	return addr
}

// TestConnectTimeout checks that a connection that does not open within a
// third of the limit ends a fetch with a *TimeoutError that says so, over
// git:// and http://.
func TestConnectTimeout(t *testing.T) {
	t.Parallel()
	addr := fullQueue(t)
	for _, scheme := range []string{"git", "http"} {
		t.Run(scheme, func(t *testing.T) {
			t.Parallel()
			url := scheme + "://" + addr + "/repo.git"
			start := time.Now()
			_, err := Checkout(context.Background(), Options{Repo: url, Rev: strings.Repeat("ab", 20), CacheDir: t.TempDir(), Timeout: 1500 * time.Millisecond})
			took := time.Since(start)
			wantFailure(t, err, fail.CodeFetch, "no connection to "+url+" within 500ms; check the host, the port and the network")
			var timeout *TimeoutError
			if !errors.As(err, &timeout) || !timeout.Connecting {
				t.Errorf("error %v: want a *TimeoutError while connecting", err)
			}
			if took > 3*time.Second {
				t.Errorf("took %s with a 500ms connect limit", took)
			}
		})
	}
}
