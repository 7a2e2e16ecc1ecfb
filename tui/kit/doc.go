// Package kit is what the lab's screens and views share: the common state
// (size, styles, theme, the session's files, training slot and memory), the
// lab's run (RunRecord) and its fold charts, the messages screens send the
// root, and small components (text field, list filter, axis picker, bins,
// footer). It imports no screen and no view: they import it.
package kit
