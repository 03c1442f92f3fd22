// A Double enum's raw values are Doubles, counted on from an integer as Swift does.
enum Level: Double { case low = 1, mid, high = 3.5 }
print(Level.low.rawValue, Level.mid.rawValue, Level.high.rawValue)
print(Level.mid.rawValue / 4)
print(Level(rawValue: 2) == .mid, Level(rawValue: 2.0) == .mid, Level(rawValue: 5) == nil)
enum Zero: Double { case a, b }
print(Zero.a.rawValue, Zero.b.rawValue)
enum Step: Int { case one = 1, two }
print(Step.two.rawValue / 2)
