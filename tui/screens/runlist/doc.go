// Package runlist is the lab's runs screen: the leaderboard of this session's
// runs and those of earlier sessions, sorted and filtered, the actions on
// a run (star, rename, delete, replay, export) and the comparison of two.
package runlist
