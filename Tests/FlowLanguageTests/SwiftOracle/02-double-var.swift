// A `var` declared Double keeps its type when an integer literal is assigned.
var total: Double = 0
print(total)
total = 7
print(total / 2)
total += 1
print(total)
var steps = 7
steps = steps / 2
print(steps)
