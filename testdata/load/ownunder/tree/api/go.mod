module example.com/ownunder/api

go 1.25
