package cluster

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// portTTL is how long a port reservation holds against other ctrlcmp
// processes when its owner does not release it (it was killed): long
// enough for etcd and kube-apiserver to bind the port, after which the
// kernel keeps it theirs.
const portTTL = 2 * time.Minute

// ports are loopback ports reserved for one cluster: each was free when
// the kernel handed it out, and a lock file in dir keeps every other
// ctrlcmp from taking it until release (or portTTL has passed).
type ports struct {
	dir     string
	numbers []int
}

// portLockDir is where this user's ctrlcmp processes mark the ports they
// reserved.
func portLockDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("ctrlcmp-ports-%d", os.Getuid()))
}

// reservePorts reserves n distinct free loopback ports: it asks the kernel
// for each, holding them all open until each is known, and keeps one only
// when it can create its lock file in dir (a port another ctrlcmp reserved
// in the last portTTL is passed over). A port taken between the
// reservation and the server's bind by a process that is not ctrlcmp is
// what Start's retry is for.
func reservePorts(dir string, n int) (*ports, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("reserve ports: %w", err)
	}
	r := &ports{dir: dir}
	for tries := 0; len(r.numbers) < n; tries++ {
		if tries == 100 {
			r.release()
			return nil, fmt.Errorf("reserve %d loopback ports: every port the kernel offered is reserved by another ctrlcmp (lock files in %s)", n, dir)
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			r.release()
			return nil, fmt.Errorf("find a free port on 127.0.0.1: %w", err)
		}
		defer l.Close()
		port := l.Addr().(*net.TCPAddr).Port
		ok, err := lockPort(dir, port, time.Now())
		if err != nil {
			r.release()
			return nil, err
		}
		if ok {
			r.numbers = append(r.numbers, port)
		}
	}
	return r, nil
}

// lockPort creates port's lock file in dir, taking over one older than
// portTTL; false when another reservation holds it.
func lockPort(dir string, port int, now time.Time) (bool, error) {
	path := filepath.Join(dir, strconv.Itoa(port))
	for range 2 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			return true, f.Close()
		}
		if !errors.Is(err, fs.ErrExist) {
			return false, fmt.Errorf("reserve port %d: %w", port, err)
		}
		st, err := os.Stat(path)
		if err != nil {
			continue // released meanwhile
		}
		if now.Sub(st.ModTime()) < portTTL {
			return false, nil
		}
		_ = os.Remove(path) // stale: its owner died without releasing it
	}
	return false, nil
}

// release removes the reservations' lock files.
func (r *ports) release() {
	if r == nil {
		return
	}
	for _, p := range r.numbers {
		_ = os.Remove(filepath.Join(r.dir, strconv.Itoa(p)))
	}
	r.numbers = nil
}
