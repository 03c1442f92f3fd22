// Int("x") and Double("x") are failable: they give Optionals.
let good = Int("42")
let bad = Int("x")
print(good as Any)
print(bad as Any)
print(Double("2.5") as Any)
print(Int("7").map { $0 * 2 } as Any)
let sum = (Int("3") ?? 0) + (Int("y") ?? 0)
print(sum)
