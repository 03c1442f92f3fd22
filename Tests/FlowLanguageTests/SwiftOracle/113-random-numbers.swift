// Random numbers as book code draws them; what prints does not depend on
// the draws (flow seeds them in virtual time, Swift does not).
import Foundation

print(Int.random(in: 1...1), Double.random(in: 2..<2.0000001) >= 2)
let roll = Int.random(in: 1...6)
print((1...6).contains(roll), roll + 0 == roll)
let unit = Double.random(in: 0..<1)
print(unit >= 0 && unit < 1, Double.random(in: 5...5))
let coin = Bool.random()
print(coin || !coin)
let dice = (0..<100).map { _ in Int.random(in: 1...6) }
print(dice.count, dice.allSatisfy { (1...6).contains($0) })
let colours = ["red", "green", "blue"]
print(colours.contains(colours.randomElement()!), [Int]().randomElement() == nil)
print(colours.shuffled().sorted(), colours.shuffled().count, [42].shuffled())
let range = 10..<20
print(range.contains(Int.random(in: range)))
