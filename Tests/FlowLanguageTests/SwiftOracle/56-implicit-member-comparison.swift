// Implicit members in comparisons, switch and default arguments.
enum Level: Int { case low = 1, high = 2 }
struct Alarm {
    var level: Level = .low
    func describe(_ l: Level = .high) -> String { "\(level.rawValue) vs \(l.rawValue)" }
}
var alarm = Alarm()
print(alarm.level == .low)
alarm.level = .high
print(alarm.describe())
print(alarm.describe(.low))
print(alarm.level != .high)
