module example.com/ownunder

go 1.25

require (
	example.com/ownunder/api v0.0.0
	example.com/ownunderlib v0.0.0
)

replace (
	example.com/ownunder/api => ./api
	example.com/ownunderlib => ../lib
)
