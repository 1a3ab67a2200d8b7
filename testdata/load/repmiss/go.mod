module example.com/repmiss

go 1.26.0

require example.com/forked v0.0.0

replace example.com/forked => ../forks/forked
