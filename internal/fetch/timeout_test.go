package fetch

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/loopback"
)

// TestSilentServer checks that a server that takes the connection and never
// answers ends a fetch with a *TimeoutError once the idle limit runs out,
// over git:// and http://, whether the revision is a sha (fetched at once)
// or a branch (resolved first).
func TestSilentServer(t *testing.T) {
	t.Parallel()
	addr := loopback.Silent(t)
	for _, scheme := range []string{"git", "http"} {
		for _, rev := range []string{strings.Repeat("ab", 20), "main"} {
			t.Run(scheme+"/"+rev, func(t *testing.T) {
				t.Parallel()
				url := scheme + "://" + addr + "/repo.git"
				cache := t.TempDir()
				start := time.Now()
				_, err := Checkout(context.Background(), Options{Repo: url, Rev: rev, CacheDir: cache, Timeout: time.Second})
				took := time.Since(start)
				wantFailure(t, err, fail.CodeFetch, url+" sent nothing for 1s while fetching "+rev+"; check that the server is up")
				var timeout *TimeoutError
				if !errors.As(err, &timeout) || timeout.Connecting {
					t.Errorf("error %v: want a *TimeoutError while fetching", err)
				}
				if took > 5*time.Second {
					t.Errorf("took %s with a 1s limit", took)
				}
				wantNoEntries(t, cache)
			})
		}
	}
}

// TestSlowServer checks that the limit is on silence, not on the whole
// fetch: a server that pauses before each of its answers, for less than the
// limit each time but for longer in all, is waited for. Each pause is well
// under the limit so that a loaded machine does not push one past it.
func TestSlowServer(t *testing.T) {
	t.Parallel()
	const limit, pause = 3 * time.Second, 1200 * time.Millisecond
	fx := newFixture(t)
	srv := serve(t, fx, permissive)
	srv.pause.Store(int64(pause))
	start := time.Now()
	res, err := Checkout(context.Background(), Options{Repo: srv.url, Rev: "main", CacheDir: t.TempDir(), Timeout: limit})
	if err != nil || res.Sha != fx.tip {
		t.Fatalf("got %+v, %v; want %s", res, err, fx.tip)
	}
	if took := time.Since(start); took <= limit {
		t.Errorf("took %s; the server paused %s before each of at least 3 answers, longer in all than the %s limit", took, pause, limit)
	}
}

// TestInterruptedFetch checks that cancelling the context ends a fetch
// waiting on a silent server at once, with context.Canceled in the chain
// (exit code 130), and leaves nothing in the cache.
func TestInterruptedFetch(t *testing.T) {
	t.Parallel()
	addr := loopback.Silent(t)
	for _, scheme := range []string{"git", "http"} {
		t.Run(scheme, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(300*time.Millisecond, cancel)
			cache := t.TempDir()
			start := time.Now()
			_, err := Checkout(ctx, Options{Repo: scheme + "://" + addr + "/repo.git", Rev: strings.Repeat("ab", 20), CacheDir: cache})
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("took %s to stop after the interrupt", took)
			}
			if !errors.Is(err, context.Canceled) || fail.Code(err) != fail.CodeInterrupted {
				t.Errorf("error %v (exit code %d): want context.Canceled, exit code %d", err, fail.Code(err), fail.CodeInterrupted)
			}
			wantNoEntries(t, cache)
		})
	}
}
