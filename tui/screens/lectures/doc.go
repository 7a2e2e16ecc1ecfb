// Package lectures is the lab's screen of the lecture notes' experiments
// (engine/lecture): a menu of them with their sources, and the runs of
// earlier sessions the history keeps; an experiment's knobs in a form
// read from its knobs as a model's parameters are; its picture (report's
// drawing) drawn live as it is computed in the background, then played
// frame by frame; cancelled with c, exported as Markdown with x.
package lectures
