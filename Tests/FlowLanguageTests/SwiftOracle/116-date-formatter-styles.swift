// DateFormatter's dateStyle and timeStyle (.none, .short, .medium, .long, .full) as Foundation
// writes and reads them in en_US, en_US_POSIX, en_GB and fr_FR; the dateFormat a style sets, which a
// dateFormat set later replaces and a new locale makes again; timeZone = nil reads back as the
// system's zone, as Swift's TimeZone! property gives it.
import Foundation

let d = Date(timeIntervalSince1970: 1_700_000_000.25)
let f = DateFormatter()
print(f.dateStyle, f.timeStyle, f.dateFormat!.isEmpty)
f.timeZone = TimeZone(identifier: "UTC")

func both(_ locale: String) {
    let date = f.string(from: d)
    let style = f.dateStyle
    f.timeStyle = f.dateStyle
    f.dateStyle = .none
    print(locale, style, "[\(date)]", "[\(f.string(from: d))]")
}

for locale in ["en_US", "en_US_POSIX", "en_GB", "fr_FR"] {
    f.locale = Locale(identifier: locale)
    f.timeStyle = .none
    f.dateStyle = .none
    both(locale)
    f.timeStyle = .none
    f.dateStyle = .short
    both(locale)
    f.timeStyle = .none
    f.dateStyle = .medium
    both(locale)
    f.timeStyle = .none
    f.dateStyle = .long
    both(locale)
    f.timeStyle = .none
    f.dateStyle = .full
    both(locale)
    f.dateStyle = .medium
    f.timeStyle = .short
    print(locale, f.dateFormat!, "[\(f.string(from: d))]")
}

// A new locale makes the styles' pattern again.
f.locale = Locale(identifier: "de_DE")
print(f.dateFormat!, f.string(from: d))

f.locale = Locale(identifier: "en_US_POSIX")
f.dateStyle = .short
f.timeStyle = .short
print(f.date(from: "11/14/23, 10:13 PM")!)
f.dateStyle = .long
f.timeStyle = .none
print(f.date(from: "November 14, 2023")!, f.date(from: "14 Nov 2023") == nil)

// A dateFormat set after a style replaces its pattern (the style reads as it was set),
// a new locale keeps it, and a style set after it replaces it.
f.dateFormat = "yyyy/MM/dd"
print(f.dateStyle, f.string(from: d))
f.locale = Locale(identifier: "fr_FR")
print(f.dateFormat!, f.string(from: d))
f.locale = Locale(identifier: "en_US")
f.dateStyle = .short
print(f.dateFormat!, f.string(from: d))

f.timeZone = TimeZone(identifier: "Asia/Tokyo")
print(f.timeZone.identifier)
f.timeZone = nil
print(f.timeZone == TimeZone.current, f.timeZone.identifier == TimeZone.current.identifier)
f.dateFormat = "HH:mm"
let other = DateFormatter()
other.dateFormat = "HH:mm"
print(f.string(from: d) == other.string(from: d))
