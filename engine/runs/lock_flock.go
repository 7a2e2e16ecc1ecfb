//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package runs

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock) on the file at path,
// creating it, and waits for another process's lock to go. The kernel
// drops the lock when the process dies, so a killed tealab never leaves
// the history locked.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
