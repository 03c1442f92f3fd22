// [Double] literals: elements are Doubles; an average is not truncated.
let scores: [Double] = [1, 2, 4]
print(scores)
let sum = scores.reduce(0, +)
print(sum)
print(sum / Double(scores.count))
let doubled = scores.map { $0 / 2 }
print(doubled)
let ints = [1, 2, 4]
print(ints.reduce(0, +) / ints.count)
