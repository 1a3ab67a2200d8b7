module example.com/elsewhere

go 1.25
