// Package svm holds support vector machines and the kernels every kernel
// method shares (Shewchuk, Concise Machine Learning, lectures 3, 4 and 16;
// Verma, COMS 4771 notes, Kernelization and SVMs; Recht, Malik & Tu, CS 189,
// sections 3 and 10): the kernel functions and their parameters, the
// linear SVM's solvers, the SMO solver with its kernel cache, and the
// models built on them.
package svm
