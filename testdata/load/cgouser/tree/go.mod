module example.com/cgouser/tree

go 1.26.0

require example.com/cgouser/lib v0.0.0

replace example.com/cgouser/lib => ../lib
