// Package sweep is the lab's sweep screen: a grid or random search over one
// or two parameters, or a learning curve, run in the background point by
// point (engine/tune), its table and chart filled as points finish.
package sweep
