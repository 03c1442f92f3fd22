// A tuple declared (Int, Double): the second member is a Double.
let pair: (Int, Double) = (5, 5)
print(pair)
print(pair.0 / 2)
print(pair.1 / 2)
let named: (count: Int, mean: Double) = (count: 3, mean: 7)
print(named.mean / 2)
print(named)
