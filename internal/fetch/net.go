package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// DefaultTimeout is how long a server may stay silent before a fetch gives
// up on it, when Options.Timeout is zero. A live git server is never silent
// that long: it sends a keep-alive every 5 seconds even while it prepares a
// large pack (uploadpack.keepAlive), so 30 seconds is six missed ones.
const DefaultTimeout = 30 * time.Second

// TimeoutError is a server that went silent: no connection within the
// connect limit, or no byte for the idle limit while fetching. Its message
// names the repository and what to check; that a longer limit is a way out,
// and how to ask for one, is the caller's to say.
type TimeoutError struct {
	Repo, Rev  string
	Connecting bool          // no connection was made
	After      time.Duration // the limit that ran out
}

func (e *TimeoutError) Error() string {
	if e.Connecting {
		return fmt.Sprintf("no connection to %s within %s; check the host, the port and the network", e.Repo, e.After)
	}
	return fmt.Sprintf("%s sent nothing for %s while fetching %s; check that the server is up and serves git at that URL", e.Repo, e.After, e.Rev)
}

// limits are the network time limits of one Checkout, which its context
// carries to the transports: a connection must open within connect, and
// every read or write on it must progress within idle. ran records the
// first limit a connection ran into, so that the failure is told as a
// timeout whatever go-git made of it.
type limits struct {
	idle time.Duration

	mu  sync.Mutex
	ran *TimeoutError // Repo and Rev unset
}

func newLimits(idle time.Duration) *limits {
	if idle <= 0 {
		idle = DefaultTimeout
	}
	return &limits{idle: idle}
}

// connect is the connect limit: a third of the idle one, 10 seconds by
// default. A TCP handshake takes milliseconds; 10 seconds covers a lost SYN
// resent three times (after 1, 3 and 7 seconds), and DNS.
func (l *limits) connect() time.Duration { return l.idle / 3 }

// record notes that a connection ran into a limit, unless one did before.
func (l *limits) record(connecting bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ran == nil {
		after := l.idle
		if connecting {
			after = l.connect()
		}
		l.ran = &TimeoutError{Connecting: connecting, After: after}
	}
}

// timedOut returns the limit a connection ran into as the failure of
// fetching rev of repo, or nil when none did.
func (l *limits) timedOut(repo, rev string) *TimeoutError {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ran == nil {
		return nil
	}
	e := *l.ran
	e.Repo, e.Rev = repo, rev
	return &e
}

type limitsKey struct{}

// withLimits returns ctx carrying l to the transports.
func withLimits(ctx context.Context, l *limits) context.Context {
	return context.WithValue(ctx, limitsKey{}, l)
}

// limitsOf returns the limits ctx carries, or the default ones: go-git
// calls some transport methods without the caller's context.
func limitsOf(ctx context.Context) *limits {
	if l, ok := ctx.Value(limitsKey{}).(*limits); ok {
		return l
	}
	return newLimits(0)
}

var installOnce sync.Once

// installTransports makes go-git's http, https and git protocols dial
// through dial, so that every connection a fetch makes keeps its limits.
// go-git keeps one transport per protocol for the whole process; the limits
// of each fetch travel in its context.
func installTransports() {
	installOnce.Do(func() {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DialContext = dial
		// The idle limit covers the TLS handshake too.
		t.TLSHandshakeTimeout = 0
		// One request per connection, over HTTP/1.1: no pooled connection
		// or HTTP/2 reader stays behind reading, so a read that runs out of
		// time is always one a fetch is waiting for.
		t.DisableKeepAlives = true
		t.ForceAttemptHTTP2 = false
		t.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
		web := githttp.NewClient(&http.Client{Transport: t})
		client.InstallProtocol("http", web)
		client.InstallProtocol("https", web)
		client.InstallProtocol("git", gitProtocol{client.Protocols["git"]})
	})
}

// dial opens a TCP connection within the connect limit of ctx's limits,
// and returns it held to their idle limit.
func dial(ctx context.Context, network, addr string) (net.Conn, error) {
	l := limitsOf(ctx)
	d := net.Dialer{Timeout: l.connect()}
	conn, err := d.DialContext(ctx, network, addr)
	if err != nil {
		if isTimeout(err) && ctx.Err() == nil {
			l.record(true)
		}
		return nil, err
	}
	return &idleConn{Conn: conn, l: l}, nil
}

// idleConn is a connection whose every read and write must progress within
// the idle limit.
type idleConn struct {
	net.Conn
	l *limits
}

func (c *idleConn) Read(p []byte) (int, error) {
	if err := c.Conn.SetReadDeadline(time.Now().Add(c.l.idle)); err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(p)
	if err != nil && isTimeout(err) {
		c.l.record(false)
	}
	return n, err
}

func (c *idleConn) Write(p []byte) (int, error) {
	if err := c.Conn.SetWriteDeadline(time.Now().Add(c.l.idle)); err != nil {
		return 0, err
	}
	n, err := c.Conn.Write(p)
	if err != nil && isTimeout(err) {
		c.l.record(false)
	}
	return n, err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
