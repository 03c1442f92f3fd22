// [String: Double]: values are Doubles.
let prices: [String: Double] = ["tea": 3]
print(prices)
print(prices["tea"]! / 2)
var stock: [String: Double] = [:]
stock["milk"] = 5
print(stock["milk"]! / 2)
for (name, value) in prices {
    print(name, value)
}
