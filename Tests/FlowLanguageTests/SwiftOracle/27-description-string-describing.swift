// String(describing:) uses description; interpolation does too.
struct Point: CustomStringConvertible {
    let x: Int, y: Int
    var description: String { "(\(x), \(y))" }
}
let p = Point(x: 1, y: 2)
print(String(describing: p))
print("p = \(p)")
let ps = [p, Point(x: 3, y: 4)]
print(ps)
print(ps.map { $0.description }.joined(separator: " "))
