package serve

import (
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Before a connection has authenticated, anyone may hold it. The gate
// keeps what they can hold small: each connection has a fixed time to
// finish its handshake and log in, and only so many may be at that stage
// from one address and in all; more are closed at once.
const (
	handshakeTimeout  = 20 * time.Second
	maxPendingPerAddr = 8
	maxPendingOverall = 64
)

type gate struct {
	log              *slog.Logger
	timeout          time.Duration
	perAddr, overall int
	mu               sync.Mutex
	pending          map[netip.Addr]int
	total            int
}

func newGate(log *slog.Logger, timeout time.Duration, perAddr, overall int) *gate {
	return &gate{log: log, timeout: timeout, perAddr: perAddr, overall: overall, pending: map[netip.Addr]int{}}
}

type pendingKey struct{}

// pending is one connection not yet logged in.
type pending struct {
	g     *gate
	addr  netip.Addr
	once  sync.Once
	timer *time.Timer
}

// done takes the connection off the gate's count (once); it reports
// whether this call did.
func (p *pending) done() (did bool) {
	p.once.Do(func() {
		did = true
		p.timer.Stop()
		p.g.mu.Lock()
		defer p.g.mu.Unlock()
		p.g.total--
		if p.g.pending[p.addr]--; p.g.pending[p.addr] <= 0 {
			delete(p.g.pending, p.addr)
		}
	})
	return did
}

// admit is the server's ConnCallback: it counts the new connection in,
// or closes it when its address or the server already has too many
// waiting, and closes it when it has not logged in in time.
func (g *gate) admit(ctx ssh.Context, conn net.Conn) net.Conn {
	addr := remoteIP(conn.RemoteAddr())
	g.mu.Lock()
	full := ""
	switch {
	case g.pending[addr] >= g.perAddr:
		full = "too many connections from this address have not logged in yet"
	case g.total >= g.overall:
		full = "too many connections have not logged in yet"
	}
	if full != "" {
		g.mu.Unlock()
		g.log.Warn("connection refused", "remote", conn.RemoteAddr().String(), "reason", full)
		return nil
	}
	g.pending[addr]++
	g.total++
	g.mu.Unlock()
	p := &pending{g: g, addr: addr}
	p.timer = time.AfterFunc(time.Hour, func() {
		if p.done() {
			g.log.Warn("handshake timed out", "remote", conn.RemoteAddr().String(), "seconds", g.timeout.Seconds())
			conn.Close()
		}
	})
	p.timer.Reset(g.timeout) // now that p.timer is set for done to stop
	ctx.SetValue(pendingKey{}, p)
	return &gatedConn{Conn: conn, p: p}
}

// config is the server's ServerConfigCallback: a successful login takes
// the connection off the gate.
func (g *gate) config(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{AuthLogCallback: func(_ gossh.ConnMetadata, _ string, err error) {
		if p, ok := ctx.Value(pendingKey{}).(*pending); ok && err == nil {
			p.done()
		}
	}}
}

// gatedConn takes itself off the gate when closed before logging in.
type gatedConn struct {
	net.Conn
	p *pending
}

func (c *gatedConn) Close() error {
	c.p.done()
	return c.Conn.Close()
}

// remoteIP is the address a connection comes from (zero when unknown).
func remoteIP(a net.Addr) netip.Addr {
	if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}
