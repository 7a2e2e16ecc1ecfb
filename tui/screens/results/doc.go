// Package results is the lab's results screen: a finished run through the
// result views (package views) its result calls for, one tab each, and
// the prompt that saves its model to a file.
package results
