// A closure whose type says Double, and a Double? declaration.
let scale: (Double) -> Double = { $0 / 2 }
print(scale(5))
let maybe: Double? = 4
print(maybe.map { $0 / 8 } ?? 0)
var acc: [Double] = []
acc.append(3)
print(acc)
let ratio = 1 / 4.0
print(ratio)
