//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package runs

import "errors"

func mkfifo(string) error { return errors.New("no named pipes here") }
