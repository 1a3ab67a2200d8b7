package cluster

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestPortsReserved reserves ports twice while the first reservation is
// held: the second passes over the first's, a lock younger than portTTL
// holds and an older one is taken over, and release frees the ports.
func TestPortsReserved(t *testing.T) {
	dir := t.TempDir()
	a, err := reservePorts(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := reservePorts(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range append(append([]int(nil), a.numbers...), b.numbers...) {
		if seen[p] {
			t.Fatalf("port %d reserved twice: %v and %v", p, a.numbers, b.numbers)
		}
		seen[p] = true
	}
	p := a.numbers[0]
	if ok, err := lockPort(dir, p, time.Now()); ok || err != nil {
		t.Errorf("lockPort of a reserved port: %v, %v; want false", ok, err)
	}
	if ok, err := lockPort(dir, p, time.Now().Add(portTTL+time.Second)); !ok || err != nil {
		t.Errorf("lockPort of a port reserved longer than portTTL ago: %v, %v; want it taken over", ok, err)
	}
	a.release()
	b.release()
	os.Remove(filepath.Join(dir, strconv.Itoa(p)))
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("lock files left after release: %v", left)
	}
}
