// Swift's one-sided ranges in a subscript and in a case pattern, and a
// range of Doubles in a case pattern.
let scores = [95, 85, 72, 40, -3]
print(scores[1...])
print(scores[..<2])
print(scores[...1])
print(scores[5...])
func grade(_ score: Int) -> String {
    switch score {
    case 90...: return "A"
    case 80..<90: return "B"
    case ..<0: return "invalid"
    case ...49: return "F"
    default: return "C"
    }
}
print(scores.map(grade))
for ratio in [0.25, 0.75, 1.5] {
    switch ratio {
    case ..<0.5: print("\(ratio) low")
    case 0.5..<1.0: print("\(ratio) middle")
    default: print("\(ratio) high")
    }
}
let head = Array(scores[..<3])
print(head.reduce(0, +))
