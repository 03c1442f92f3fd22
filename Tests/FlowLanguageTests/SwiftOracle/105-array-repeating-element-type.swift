// Array(repeating:count:) has the element's type: a grid of 0.0 stores 3 as 3.0.
var grid = Array(repeating: Array(repeating: 0.0, count: 2), count: 2)
grid[0][1] = 3
print(grid)
var row = Array(repeating: 0.5, count: 3)
row[2] = 1
print(row, row[2] / 4)
var flags = Array(repeating: false, count: 2)
flags[1] = true
print(flags)
