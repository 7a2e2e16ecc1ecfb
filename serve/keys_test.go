package serve

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// The host key is made on first start, readable by its owner alone, and
// the same key is read on the next start.
func TestHostKeyIsMadeOnceAndKeptPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys", "host")
	first, err := hostSigner(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("host key mode %04o, want 0600", fi.Mode().Perm())
	}
	again, err := hostSigner(path)
	if err != nil {
		t.Fatal(err)
	}
	if gossh.FingerprintSHA256(first.PublicKey()) != gossh.FingerprintSHA256(again.PublicKey()) {
		t.Fatal("a second start made a new host key")
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := hostSigner(path); err == nil || !strings.Contains(err.Error(), "chmod 600 "+path) {
		t.Fatalf("a host key others can read: %v, want a refusal saying chmod 600", err)
	}
}

func TestAuthorizedKeysErrorsNameTheLine(t *testing.T) {
	dir := t.TempDir()
	key := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(newSigner(t).PublicKey())))
	for text, want := range map[string]string{
		"# only a comment\n\n":              "lists no key",
		key + " ann\nssh-ed25519 AAAAnot\n": "keys:2: not a public key",
	} {
		path := filepath.Join(dir, "keys")
		writeFile(t, path, text)
		_, err := readAuthorizedKeys(path, slog.New(slog.DiscardHandler))
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("authorized keys %q: %v, want one line saying %q", text, err, want)
		}
	}
	if _, err := readAuthorizedKeys(filepath.Join(dir, "none"), slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "--authorized-keys") {
		t.Errorf("a missing file: %v", err)
	}
	writeFile(t, filepath.Join(dir, "keys"), key+" ann@example\n")
	users, err := readAuthorizedKeys(filepath.Join(dir, "keys"), slog.New(slog.DiscardHandler))
	if err != nil || len(users) != 1 {
		t.Fatalf("one key: %v, %d users", err, len(users))
	}
	for _, u := range users {
		if u.name != "ann@example" || !strings.HasPrefix(u.fingerprint, "SHA256:") || len(u.id) != 64 {
			t.Fatalf("user %+v: want the comment as name, a SHA256 fingerprint and a 64-digit id", u)
		}
	}
}

// Runs wait in line for a slot first come first served, are told their
// place as it changes, and leave the line when their session ends.
func TestSlotsQueueInOrder(t *testing.T) {
	s := newSlots(1)
	first, err := s.wait(context.Background(), func(int) { t.Error("the first run waited") })
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	places := map[string][]int{}
	tell := func(name string) func(int) {
		return func(p int) {
			mu.Lock()
			places[name] = append(places[name], p)
			mu.Unlock()
		}
	}
	got := make(chan string, 3)
	ctxB, cancelB := context.WithCancel(context.Background())
	start := func(name string, ctx context.Context) {
		go func() {
			release, err := s.wait(ctx, tell(name))
			if err != nil {
				got <- name + " gave up"
				return
			}
			got <- name
			time.Sleep(10 * time.Millisecond)
			release()
		}()
	}
	start("a", context.Background())
	eventually(t, "a in line", func() bool { _, q := s.load(1); return q == 1 })
	start("b", ctxB)
	eventually(t, "b in line", func() bool { _, q := s.load(1); return q == 2 })
	start("c", context.Background())
	eventually(t, "c in line", func() bool { _, q := s.load(1); return q == 3 })
	cancelB() // b's session ends: c moves up
	if g := <-got; g != "b gave up" {
		t.Fatalf("%s, want b to give up", g)
	}
	first()
	first() // once only
	order := []string{<-got, <-got}
	if !slices.Equal(order, []string{"a", "c"}) {
		t.Fatalf("slots went to %v, want a then c", order)
	}
	eventually(t, "every slot free", func() bool { n, q := s.load(1); return n == 0 && q == 0 })
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(places["a"], []int{1}) || !slices.Equal(places["b"], []int{2}) || !slices.Equal(places["c"], []int{3, 2, 1}) {
		t.Fatalf("places told %v; want a [1], b [2], c [3 2 1]", places)
	}
}
