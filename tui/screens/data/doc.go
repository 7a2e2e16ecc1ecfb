// Package data is the lab's data screen: the built-in sets, generators and
// files to choose from (a file browser), and a preview of the data chosen
// (columns, rows, class balance, histograms, a plot, a scatter-plot
// matrix) where the target is picked and columns dropped.
package data
