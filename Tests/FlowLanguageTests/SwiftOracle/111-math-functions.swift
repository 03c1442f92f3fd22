// The C library's math with `import Foundation`: Double in, Double out,
// integer literals read as Doubles, and pow's Decimal overload where
// Swift's type checker picks it.
import Foundation

print(sqrt(16.0), sqrt(2), pow(2.0, 3.0), pow(2.0, 0.5), floor(2.7), ceil(2.1), round(2.5), round(-2.5))
print(floor(-2.5), ceil(-2.5), trunc(2.7), trunc(-2.7), cbrt(27.0), fmod(7.5, 2.0))
print(exp(1.0), exp(0.0), log(10.0), log2(8.0), log10(1000.0))
print(sin(0.0), cos(0.0), tan(1.0), asin(1.0), acos(1.0), atan(1.0), atan2(1.0, 1.0), atan2(0.0, -1.0), hypot(3.0, 4.0))
print(sin(Double.pi / 2), cos(Double.pi), abs(-2.5), abs(-3), min(2.5, 1), max(1, 2.5))

let side = 3.0
let area = pow(side, 2)
print(area, sqrt(area), Int(sqrt(area)), floor(area / 2), area.squareRoot() == side)
let radius: Double = 2
print(Double.pi * pow(radius, 2), (Double.pi * radius * radius * 100).rounded() / 100)
let n = 10
print(sqrt(Double(n)), pow(Double(n), 2), Int(pow(Double(n), 3)))

// pow of two integer literals, or of a literal and an Int, is Foundation's pow(Decimal, Int).
print(pow(2, 10), pow(10, 3), pow(Decimal(2), 10), pow(Decimal(string: "1.5")!, 2))
let k = 3
print(pow(2.0, k))
