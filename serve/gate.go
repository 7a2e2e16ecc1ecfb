package serve

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Before a connection has authenticated, anyone may hold it. The gate
// keeps what they can hold small: each connection has a fixed time to
// finish its handshake and log in, and only so many may be at that stage
// from one address and in all; more are closed at once. A logged-in
// connection has the same time again to open a session (a lab or SFTP),
// and a key may hold only a few more connections than a person has labs
// (server.go sets the caps), the server only so many in all.
const (
	handshakeTimeout  = 20 * time.Second
	maxPendingPerAddr = 8
	maxPendingOverall = 64
)

type gate struct {
	log              *slog.Logger
	timeout          time.Duration
	perAddr, overall int
	perKey, loggedIn int // caps on connections logged in
	mu               sync.Mutex
	pending          map[netip.Addr]int
	total            int
	keys             map[string]int // connections logged in, by marshalled key
	in               int
}

func newGate(log *slog.Logger, timeout time.Duration, perAddr, overall, perKey, loggedIn int) *gate {
	return &gate{log: log, timeout: timeout, perAddr: perAddr, overall: overall, perKey: perKey, loggedIn: loggedIn,
		pending: map[netip.Addr]int{}, keys: map[string]int{}}
}

type connKey struct{}

// acceptedKey holds the key authorise accepted last on a connection: the
// one it logs in with, but for a client that has two listed keys accepted
// and signs with the first (the login's key reaches the context only
// after the handshake). Such a client holds both keys anyway.
type acceptedKey struct{}

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
	c := &gatedConn{Conn: conn, p: p}
	ctx.SetValue(connKey{}, c)
	return c
}

// config is the server's ServerConfigCallback: a successful login takes
// the connection off the gate's waiting count, onto its logged-in one.
func (g *gate) config(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{AuthLogCallback: func(_ gossh.ConnMetadata, _ string, err error) {
		if c, ok := ctx.Value(connKey{}).(*gatedConn); ok && err == nil && c.p.done() {
			key, _ := ctx.Value(acceptedKey{}).(ssh.PublicKey)
			g.login(c, key)
		}
	}}
}

// login counts c in as logged in with key, or closes it when the key or
// the server already has too many connections logged in; it closes c too
// when no session has opened on it in time.
func (g *gate) login(c *gatedConn, key ssh.PublicKey) {
	id := ""
	if key != nil {
		id = string(key.Marshal())
	}
	g.mu.Lock()
	full := ""
	switch {
	case g.keys[id] >= g.perKey:
		full = fmt.Sprintf("this key has %d connections logged in already", g.keys[id])
	case g.in >= g.loggedIn:
		full = fmt.Sprintf("%d connections are logged in already", g.in)
	}
	if full == "" {
		g.keys[id]++
		g.in++
	}
	g.mu.Unlock()
	remote := c.RemoteAddr().String()
	if full != "" {
		g.log.Warn("connection refused", "remote", remote, "key", fingerprint(key), "reason", full)
		c.Conn.Close()
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key, c.counted = id, true
	c.idle = time.AfterFunc(g.timeout, func() {
		g.log.Warn("connection closed", "remote", remote, "key", fingerprint(key), "reason", "no session opened after login", "seconds", g.timeout.Seconds())
		c.Close()
	})
	if c.closed { // closed while logging in
		c.idle.Stop()
		c.leave()
	}
}

// session is the server's handler of session channels: a session opened
// keeps its connection from being closed for having none.
func (g *gate) session(srv *ssh.Server, conn *gossh.ServerConn, ch gossh.NewChannel, ctx ssh.Context) {
	if c, ok := ctx.Value(connKey{}).(*gatedConn); ok {
		c.mu.Lock()
		if c.idle != nil {
			c.idle.Stop()
		}
		c.mu.Unlock()
	}
	ssh.DefaultSessionHandler(srv, conn, ch, ctx)
}

// gatedConn takes itself off the gate's counts when closed.
type gatedConn struct {
	net.Conn
	p       *pending
	mu      sync.Mutex
	key     string      // logged in with
	counted bool        // in the gate's logged-in count
	idle    *time.Timer // closes it when no session opens
	closed  bool
}

func (c *gatedConn) Close() error {
	c.p.done()
	c.mu.Lock()
	c.closed = true
	if c.idle != nil {
		c.idle.Stop()
	}
	c.leave()
	c.mu.Unlock()
	return c.Conn.Close()
}

// leave takes a logged-in connection off the gate's count (once); c.mu is
// held.
func (c *gatedConn) leave() {
	if !c.counted {
		return
	}
	c.counted = false
	g := c.p.g
	g.mu.Lock()
	defer g.mu.Unlock()
	g.in--
	if g.keys[c.key]--; g.keys[c.key] <= 0 {
		delete(g.keys, c.key)
	}
}

// fingerprint is key's SHA-256 fingerprint; "" for none.
func fingerprint(key ssh.PublicKey) string {
	if key == nil {
		return ""
	}
	return gossh.FingerprintSHA256(key)
}

// remoteIP is the address a connection comes from (zero when unknown).
func remoteIP(a net.Addr) netip.Addr {
	if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}
