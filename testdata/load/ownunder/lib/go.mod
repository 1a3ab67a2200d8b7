module example.com/ownunderlib

go 1.25

require example.com/ownunder/api v0.0.0
