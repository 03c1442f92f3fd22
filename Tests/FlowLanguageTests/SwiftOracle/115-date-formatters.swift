// Foundation's DateFormatter and ISO8601DateFormatter, configured through a let (they are classes):
// dateFormat, timeZone and locale set, string(from:) and date(from:), TimeZone's initialisers.
import Foundation

let d = Date(timeIntervalSince1970: 1_700_000_000.25)
let f = DateFormatter()
f.locale = Locale(identifier: "en_US_POSIX")
f.dateFormat = "yyyy-MM-dd HH:mm"
f.timeZone = TimeZone(identifier: "UTC")
print(f.string(from: d))
print(f.date(from: "2023-11-14 22:13")!)
print(f.date(from: "2023-11-14") as Any, f.date(from: "14/11/2023") as Any, f.date(from: "2023-02-30 10:00") as Any)
print(f.dateFormat!, f.locale.identifier)

f.timeZone = TimeZone(identifier: "Europe/Paris")
print(f.string(from: d), f.timeZone.identifier)
print(f.date(from: "2023-07-01 12:00")!)
f.dateFormat = "EEEE, MMM d, yyyy h:mm:ss.SSS a zzz xxx"
print(f.string(from: d))
f.dateFormat = "EEE dd/MM/yy HH:mm:ss.SSS 'at' ZZZZZ"
let written = f.string(from: d)
print(written, f.date(from: written)!.timeIntervalSince1970)

f.timeZone = TimeZone(secondsFromGMT: -16200)
print(f.string(from: d), f.timeZone.identifier)
f.locale = Locale(identifier: "fr_FR")
f.dateFormat = "EEEE d MMMM yyyy"
print(f.string(from: d))

let zones = [TimeZone(identifier: "Asia/Tokyo"), TimeZone(identifier: "Mars/Olympus"), TimeZone(abbreviation: "EST"), TimeZone(secondsFromGMT: 3600)]
for zone in zones {
    if let zone {
        print(zone.identifier, zone.secondsFromGMT(for: d))
    } else {
        print("no such zone")
    }
}

let iso = ISO8601DateFormatter()
print(iso.string(from: d))
print(iso.date(from: "2023-11-14T23:13:20+01:00")!)
print(iso.date(from: "2023-11-14T22:13:20.25Z") as Any)
iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
print(iso.string(from: d))
print(iso.date(from: "2023-11-14T22:13:20.250Z")!.timeIntervalSince1970)
print(iso.date(from: "2023-11-14T22:13:20Z") as Any)
iso.timeZone = TimeZone(identifier: "America/New_York")
print(iso.string(from: d))
iso.formatOptions = [.withFullDate]
print(iso.string(from: d))
print(iso.date(from: "2023-11-14")!)
iso.formatOptions = .withInternetDateTime
print(iso.string(from: d))
