// A literal given where a Double is declared by `let` is a Double.
let price: Double = 5
print(price)
print(price / 2)
let count = 5
print(count / 2)
print("half: \(price / 2)")
