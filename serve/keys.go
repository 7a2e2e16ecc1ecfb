package serve

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/netip"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// user is who an authorised key belongs to: the key's comment in the
// authorized-keys file (else its fingerprint) names them in logs, and a
// hash of the key names their own directory. A key may be listed on more
// than one line, each with its own options; a connection is admitted by
// the first line whose options admit it.
type user struct {
	name        string
	fingerprint string // SHA256:..., as ssh-keygen -l prints it
	id          string // hex SHA-256 of the key: their directory's name
	grants      []grant
}

// grant is one line's options, as OpenSSH reads them in authorized_keys:
// those that limit the key and that the server can enforce. A line with
// any other option is refused when the file is read.
type grant struct {
	line    int
	from    []string  // from="pattern-list": the addresses it may come from; nil anywhere
	expires time.Time // expiry-time=: zero never
	noPty   bool      // no-pty, or restrict without pty: no terminal, so no lab (SFTP only)
}

// admits says why g does not admit a connection from ip at now ("" if it
// does).
func (g grant) admits(ip netip.Addr, now time.Time) string {
	if !g.expires.IsZero() && !now.Before(g.expires) {
		return fmt.Sprintf("the key expired at %s (expiry-time on line %d)", g.expires.Format(time.RFC3339), g.line)
	}
	if g.from != nil && !matchFrom(g.from, ip) {
		return fmt.Sprintf("%s is not in from=%q on line %d", ip, strings.Join(g.from, ","), g.line)
	}
	return ""
}

// admit is the first of u's grants that admits a connection from ip at
// now, or why none does.
func (u user) admit(ip netip.Addr, now time.Time) (grant, string) {
	if len(u.grants) == 0 {
		return grant{}, "the key is not listed"
	}
	var why []string
	for _, g := range u.grants {
		w := g.admits(ip, now)
		if w == "" {
			return g, ""
		}
		why = append(why, w)
	}
	return grant{}, strings.Join(why, "; ")
}

// readAuthorizedKeys reads an OpenSSH authorized_keys file into the users
// it admits, keyed by the key's wire form. A line whose options the server
// cannot honour (command=, environment=, permitopen=, an unknown one...) is
// left out with a warning on log naming it: admitting the key without
// them would grant more than the line does.
func readAuthorizedKeys(path string, log *slog.Logger) (map[string]user, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--authorized-keys %s: %w (list the public keys that may connect, one per line, as in ~/.ssh/authorized_keys)", path, errors.Unwrap(err))
	}
	users := map[string]user{}
	refused := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		key, comment, options, _, err := gossh.ParseAuthorizedKey(text)
		if err != nil {
			return nil, fmt.Errorf("--authorized-keys %s:%d: not a public key (%v): write one key per line, as ssh-keygen's .pub files hold it", path, line, err)
		}
		g, err := parseOptions(options)
		if err != nil {
			log.Warn("key refused", "file", path, "line", line, "key", gossh.FingerprintSHA256(key), "reason", err.Error())
			refused++
			continue
		}
		g.line = line
		u, ok := users[string(key.Marshal())]
		if !ok {
			u = newUser(key, comment)
		}
		u.grants = append(u.grants, g)
		users[string(key.Marshal())] = u
	}
	if len(users) == 0 {
		if refused > 0 {
			return nil, fmt.Errorf("--authorized-keys %s: every key has options the server cannot honour, so nobody could connect (see the lines logged)", path)
		}
		return nil, fmt.Errorf("--authorized-keys %s lists no key, so nobody could connect: add a public key (a line of ~/.ssh/id_ed25519.pub)", path)
	}
	return users, nil
}

// parseOptions reads one line's options into what they grant, or says
// which one cannot be honoured. Options that only take away what the
// server never gives (forwarding, X11, ~/.ssh/rc) are honoured by
// construction, and so are those that would give them back.
func parseOptions(options []string) (grant, error) {
	var g grant
	restrict, pty, noPty := false, false, false
	for _, opt := range options {
		name, value, _ := strings.Cut(opt, "=")
		value = unquote(value)
		switch strings.ToLower(name) {
		case "from":
			pats := strings.Split(value, ",")
			for _, p := range pats {
				if err := checkPattern(p); err != nil {
					return g, fmt.Errorf("from=%q: %v", value, err)
				}
			}
			g.from = pats
		case "expiry-time":
			t, err := parseExpiry(value)
			if err != nil {
				return g, fmt.Errorf("expiry-time=%q: %v", value, err)
			}
			g.expires = t
		case "restrict":
			restrict = true
		case "no-pty":
			noPty = true
		case "pty":
			pty = true
		case "no-agent-forwarding", "no-port-forwarding", "no-x11-forwarding", "no-user-rc",
			"agent-forwarding", "port-forwarding", "x11-forwarding", "user-rc":
		default:
			return g, fmt.Errorf("option %s cannot be honoured by tealab serve (it runs no commands, sets no environment and forwards nothing): remove it or the key", name)
		}
	}
	g.noPty = noPty || restrict && !pty
	return g, nil
}

// unquote takes off the double quotes around an option's value and the
// backslashes before quotes inside it.
func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	return strings.ReplaceAll(v, `\"`, `"`)
}

// parseExpiry reads YYYYMMDD[HHMM[SS]] in local time, or in UTC with a
// trailing Z, as sshd does.
func parseExpiry(v string) (time.Time, error) {
	loc := time.Local
	if s, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = s, time.UTC
	}
	layouts := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}
	layout, ok := layouts[len(v)]
	if !ok {
		return time.Time{}, errors.New("want YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS")
	}
	return time.ParseInLocation(layout, v, loc)
}

// checkPattern refuses a from= pattern that cannot match as meant: an
// empty one, or a malformed address/prefix.
func checkPattern(p string) error {
	p = strings.TrimPrefix(strings.TrimSpace(p), "!")
	switch {
	case p == "":
		return errors.New("an empty pattern")
	case strings.Contains(p, "/"):
		if _, err := netip.ParsePrefix(p); err != nil {
			return fmt.Errorf("%s is not an address/prefix-length", p)
		}
	}
	return nil
}

// matchFrom is sshd's from= check without DNS (its default, UseDNS no):
// ip matches the list when some pattern matches it and no negated one
// (!pattern) does. A pattern is an address/prefix (10.0.0.0/8), or an
// address with * and ? wildcards; a host name never matches.
func matchFrom(patterns []string, ip netip.Addr) bool {
	ip = ip.Unmap()
	text := ip.String()
	matched := false
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		var hit bool
		if prefix, err := netip.ParsePrefix(p); err == nil {
			hit = prefix.Contains(ip)
		} else if addr, err := netip.ParseAddr(p); err == nil {
			hit = addr.Unmap() == ip
		} else {
			hit, _ = path.Match(strings.ToLower(p), strings.ToLower(text))
		}
		if hit && neg {
			return false
		}
		matched = matched || hit
	}
	return matched
}

func newUser(key gossh.PublicKey, comment string) user {
	sum := sha256.Sum256(key.Marshal())
	u := user{name: comment, fingerprint: gossh.FingerprintSHA256(key), id: hex.EncodeToString(sum[:])}
	if u.name == "" {
		u.name = u.fingerprint
	}
	return u
}

// hostSigner reads the server's private key at path, or makes an ed25519
// key there (mode 0600, its directory 0700) when there is none. A key that
// others may read is refused: whoever reads it can pose as the server.
func hostSigner(path string) (gossh.Signer, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if b, err = makeHostKey(path); err != nil {
			return nil, fmt.Errorf("--host-key %s: %w", path, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("--host-key %s: %w", path, errors.Unwrap(err))
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("--host-key %s: %w", path, err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("--host-key %s can be read by others (mode %04o): run chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	signer, err := gossh.ParsePrivateKey(b)
	if err != nil {
		return nil, fmt.Errorf("--host-key %s: not a private key without a passphrase (%v): remove it to have a new one made", path, err)
	}
	return signer, nil
}

// makeHostKey writes a new ed25519 private key in OpenSSH's format.
func makeHostKey(path string) ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "tealab serve host key")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	b := pem.EncodeToMemory(block)
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	return b, f.Close()
}
