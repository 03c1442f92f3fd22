// Decimal for money: literals where Decimal is declared, mixing with Ints, totals, comparisons.
import Foundation
let price: Decimal = 19
print(price / 2, price * 0.1, price == 19)
let prices = [Decimal(string: "0.10")!, Decimal(string: "0.20")!, Decimal(string: "1.05")!]
let total = prices.reduce(Decimal(0), +)
print(total, "\(total)")
print(prices, prices.max()!, total > 1)
print(Decimal(string: "twelve") as Any, Decimal(string: "2.50") as Any)
print(Decimal(1) / Decimal(3))
print(Decimal(7) - 10)
