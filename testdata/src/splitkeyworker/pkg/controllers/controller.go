// Package controllers names what every controller of the agent is: a thing
// that runs with some workers.
package controllers

import "context"

// Controller runs until ctx is done.
type Controller interface {
	Run(ctx context.Context, workers int)
}
