// `try?` gives an Optional.
enum ParseError: Error { case bad }
func parse(_ s: String) throws -> Int {
    guard s == "1" else { throw ParseError.bad }
    return 1
}
let ok = try? parse("1")
let bad = try? parse("x")
print(ok as Any)
print(bad as Any)
print(ok ?? -1, bad ?? -1)
