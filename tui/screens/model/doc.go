// Package model is the lab's model screen: the registry's models that
// learn the data's task, filtered as typed, those the machine cannot fit
// greyed out with the reason.
package model
