// `var first = 0, second = 0` and `let a = 1, b = "x"`.
var first = 0, second = 0
first += 1
second = first + 10
print(first, second)
let a = 1, b = "x"
print(a, b)
var x: Double = 1, y: Double = 2
x += y
print(x, y)
