// Generic arguments declare Double: Array<Double>, Dictionary<String, Double>, Optional<Double>.
let zeros = Array<Double>(repeating: 1, count: 2)
print(zeros)
var table = Dictionary<String, Double>()
table["x"] = 3
print(table["x"]! / 2)
let o = Optional<Double>(4)
print(o as Any)
func first<T>(_ xs: [T]) -> T? { xs.first }
let f: Double? = first([5])
print(f as Any)
