// Arithmetic that gives 2.5 where Int would give 2.
let a = 5
let b = 2
print(a / b)
print(Double(a) / Double(b))
let x: Double = 5
print(x / 2)
print(5.0 / 2)
func average(_ values: [Double]) -> Double {
    values.reduce(0, +) / Double(values.count)
}
print(average([2, 3]))
print(Int(average([2, 3])))
