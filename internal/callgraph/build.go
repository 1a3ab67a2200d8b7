package callgraph

import (
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"time"

	"golang.org/x/tools/go/ssa"
)

// packageBuilder builds the tree's packages one after the other. Ill-typed
// code the filters did not keep from the SSA builder can make it panic;
// the panic is turned into an error naming the package. A panic part way
// through a build leaves the functions that build was making for other
// packages (instantiations, wrappers) unfinished, and a later build that
// needs one waits for it for ever. After a panic, each build runs in a
// goroutine that is watched: one found waiting in the builder's task wait
// can only be waiting for the failed build (builds run one at a time, so
// no other is running), and is left there, the package not built.
type packageBuilder struct {
	// failed is the first package whose build panicked.
	failed string
}

// stallPoll is how often a watched build is looked at.
const stallPoll = 50 * time.Millisecond

func (b *packageBuilder) build(p *ssa.Package) error {
	if b.failed == "" {
		err := buildPackage(p)
		if err != nil {
			b.failed = p.Pkg.Path()
		}
		return err
	}
	done := make(chan error, 1)
	id := make(chan uint64, 1)
	go func() {
		id <- goroutineID()
		done <- buildPackage(p)
	}()
	g := <-id
	for {
		select {
		case err := <-done:
			return err
		case <-time.After(stallPoll):
		}
		if waitingOnTask(g) {
			return fmt.Errorf("%s: SSA not built: its build waits for functions the failed build of %s left unfinished", p.Pkg.Path(), b.failed)
		}
	}
}

// buildPackage builds one package's bodies; ill-typed code can make the SSA
// builder panic, which is turned into an error naming the package.
func buildPackage(p *ssa.Package) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: SSA not built (the package has type errors): %v", p.Pkg.Path(), r)
		}
	}()
	p.Build()
	return nil
}

// goroutineID is the id of the calling goroutine, read from its stack's
// header ("goroutine 42 [running]:").
func goroutineID() uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	buf = bytes.TrimPrefix(buf, []byte("goroutine "))
	if i := bytes.IndexByte(buf, ' '); i > 0 {
		buf = buf[:i]
	}
	n, _ := strconv.ParseUint(string(buf), 10, 64)
	return n
}

// waitingOnTask reports whether goroutine g is parked receiving in the SSA
// builder's wait for another build's task.
func waitingOnTask(g uint64) bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	head := []byte(fmt.Sprintf("goroutine %d [chan receive", g))
	for _, stack := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.HasPrefix(stack, head) {
			return bytes.Contains(stack, []byte("golang.org/x/tools/go/ssa.(*task).wait"))
		}
	}
	return false
}
