// Numbers' methods and properties as book code rounds and tests them:
// rounding rules as implicit members, remainders, magnitudes and signs,
// the types' constants, and results typed as Swift types them.
import Foundation

let x = 7.25
print(x.rounded(), x.rounded(.down), x.rounded(.up), x.rounded(.towardZero), (-x).rounded(.awayFromZero), x.rounded(.toNearestOrEven))
print((x * 10).rounded() / 10, Int(x.rounded()), x.rounded() / 2)
print(2.5.rounded(), 2.5.rounded(.toNearestOrEven), (-2.5).rounded(.toNearestOrAwayFromZero), FloatingPointRoundingRule.down)
print(x.squareRoot(), 16.0.squareRoot(), (-1.0).squareRoot().isNaN)
print(x.truncatingRemainder(dividingBy: 2), (-7.5).truncatingRemainder(dividingBy: 2), x.remainder(dividingBy: 2), 8.5.remainder(dividingBy: 3))
print(10.isMultiple(of: 5), 7.isMultiple(of: 2), 0.isMultiple(of: 0), (-6).isMultiple(of: 3))
print((-3).magnitude, (-2.5).magnitude, (-3).signum(), 0.signum(), 8.signum())
print(x.sign, (-x).sign, (-0.0).sign, x.sign == .minus, (-x).sign == .minus, x.sign == FloatingPointSign.plus)
print(x.isNaN, (0.0 / 0.0).isNaN, x.isFinite, (1.0 / 0).isInfinite, x.isInfinite, 0.0.isZero, (-0.0).isZero, x.isZero)
print(5.advanced(by: -2), 5.distance(to: 12), 2.5.advanced(by: 1), 2.5.distance(to: 4))
print(42.description.count, x.description, 100.0.description + "!")
print(Double.pi > 3, Double.infinity > 1, Int.max > 0, Int.min < 0, Double.greatestFiniteMagnitude > 1)
print(Double.pi, Int.max, Int.min, Double.infinity, -Double.infinity, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude)
print(Double.nan.isNaN, Double.infinity.isFinite)
let zero = 0.0
// A NaN keeps its sign: Swift folds literals to nan, the processor makes -nan.
print(0.0 / 0.0, -(0.0 / 0.0), zero / zero, (-1.0).squareRoot(), Double.nan, (1.0 / 0) - (1.0 / 0))

let prices = [19.99, 5.25, 3.5]
let total = prices.reduce(0, +)
print(total, (total * 100).rounded() / 100, Int((total * 100).rounded()))
let average = total / Double(prices.count)
print((average * 10).rounded(.down) / 10, average.rounded(.up))
let cents = prices.map { ($0 * 100).rounded() }
print(cents, cents.map { Int($0) })
let parts = [7, 12, 15, 20].filter { $0.isMultiple(of: 5) }
print(parts, parts.map { $0.description })
