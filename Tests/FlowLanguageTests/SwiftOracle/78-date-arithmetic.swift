// Date arithmetic on fixed dates: addingTimeInterval and timeIntervalSince (Doubles).
import Foundation
let start = Date(timeIntervalSince1970: 0)
let later = start.addingTimeInterval(90)
print(later.timeIntervalSince(start))
print(later.timeIntervalSince1970 / 60)
let gap: TimeInterval = 5
print(start.addingTimeInterval(gap).timeIntervalSince1970)
print(later > start)
