// `guard ... else { throw E.x }`.
enum ValidationError: Error { case empty, tooLong }
func validate(_ name: String) throws -> String {
    guard !name.isEmpty else { throw ValidationError.empty }
    guard name.count < 5 else {
        throw ValidationError.tooLong
    }
    return name.uppercased()
}
for n in ["ann", "", "bartholomew"] {
    do {
        print(try validate(n))
    } catch {
        print("error: \(error)")
    }
}
