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
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// user is who an authorised key belongs to: the key's comment in the
// authorized-keys file (else its fingerprint) names them in logs, and a
// hash of the key names their own directory.
type user struct {
	name        string
	fingerprint string // SHA256:..., as ssh-keygen -l prints it
	id          string // hex SHA-256 of the key: their directory's name
}

// readAuthorizedKeys reads an OpenSSH authorized_keys file into the users
// it admits, keyed by the key's wire form.
func readAuthorizedKeys(path string) (map[string]user, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--authorized-keys %s: %w (list the public keys that may connect, one per line, as in ~/.ssh/authorized_keys)", path, errors.Unwrap(err))
	}
	users := map[string]user{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		key, comment, _, _, err := gossh.ParseAuthorizedKey(text)
		if err != nil {
			return nil, fmt.Errorf("--authorized-keys %s:%d: not a public key (%v): write one key per line, as ssh-keygen's .pub files hold it", path, line, err)
		}
		users[string(key.Marshal())] = newUser(key, comment)
	}
	if len(users) == 0 {
		return nil, fmt.Errorf("--authorized-keys %s lists no key, so nobody could connect: add a public key (a line of ~/.ssh/id_ed25519.pub)", path)
	}
	return users, nil
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
