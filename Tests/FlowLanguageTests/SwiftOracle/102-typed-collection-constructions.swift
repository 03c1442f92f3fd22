// Collections and optionals constructed with their element types written:
// the arguments and what is added later take those types.
var prices = [Double]()
prices.append(3)
print(prices[0] / 2)
var rates = [String: Double]()
rates["eur"] = 1
print(rates["eur"]! / 4)
let ones = [Double](repeating: 1, count: 3)
print(ones)
var scores = Array<Double>()
scores += [7]
print(scores.reduce(0, +) / 2)
let half = Optional<Double>(1)
print(half.map { $0 / 2 } as Any)
let names = [String]()
print(names.isEmpty, names)
let counts = [Int](repeating: 2, count: 2)
print(counts)
