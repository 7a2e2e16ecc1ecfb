package engine

import (
	"errors"
	"fmt"
)

// ErrLimit marks an error that says a choice does not fit these data: a
// parameter beyond what the rows allow (k above the training rows), or a
// model whose memory the machine does not have. It is the person's choice to
// change, not a failure of the program, so the CLI exits 2 for it.
var ErrLimit = errors.New("beyond what the data allow")

// limitError is the error Limitf makes: its message alone, and Is ErrLimit.
type limitError struct{ msg string }

func (e *limitError) Error() string        { return e.msg }
func (e *limitError) Is(target error) bool { return target == ErrLimit }

// Limitf formats a message stating the limit that applies to these data
// ("k=200 but the training part has 120 rows") as an error for which
// errors.Is(err, ErrLimit) holds.
func Limitf(format string, a ...any) error {
	return &limitError{msg: fmt.Sprintf(format, a...)}
}
