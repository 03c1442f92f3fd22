// An integer literal passed to a Double parameter is a Double.
func half(_ x: Double) -> Double {
    return x / 2
}
func describe(amount: Double) -> String {
    return "amount=\(amount)"
}
print(half(5))
print(half(4))
print(describe(amount: 3))
