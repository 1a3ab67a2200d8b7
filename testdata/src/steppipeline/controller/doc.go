// Package controller holds a reconciler that runs a pipeline of stage
// reconcilers through an interface.
//
// want-none "StagePipeline/reread"
// want-none "StagePipeline/finalizer-const" "StagePipeline/finalizer-add" "StagePipeline/finalizer-cleanup" "StagePipeline/finalizer-remove"
// want-none "StagePipeline/condition-types" "StagePipeline/drift"
package controller
