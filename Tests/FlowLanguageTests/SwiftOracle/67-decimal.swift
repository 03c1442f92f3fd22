// Decimal arithmetic, printed.
import Foundation
let a = Decimal(string: "0.1")!
let b = Decimal(string: "0.2")!
print(a + b)
print(a + b == Decimal(string: "0.3")!)
print(0.1 + 0.2 == 0.3)
let price = Decimal(19)
let qty = Decimal(3)
print(price * qty)
print(Decimal(string: "10.50")! - Decimal(2))
print(Decimal(7) / Decimal(2))
