// String(format:) as Foundation writes each conversion on Linux.
import Foundation

print(String(format: "%.2f", 2.0 / 3), String(format: "%d items", 3))
print(String(format: "%5.1f|%-4d|%@|%03d|%x|%e|%%", 3.14159, 7, "s", 5, 255, 1234.5))
print(String(format: "%d|%i|%5d|%-5d|%05d|%+d|% d|%ld|%lld|%x|%X|%#x|%o|%#o|%u", 42, -7, 42, 42, 42, 42, 42, 42, 42, 255, 255, 255, 8, 8, 42))
print(String(format: "%f|%.2f|%8.3f|%-8.2f|%08.2f|%+.1f|% .1f|%.0f|%#.0f|%e|%.2E|%g|%G|%g|%g", 3.14159, 3.14159, 3.14159, 3.14159, 3.14159, 3.14159, 3.14159, 2.5, 2.5, 1234.5, 1234.5, 0.0001, 1e-10, 100000.0, 1000000.0))
print(String(format: "%@|%10@|%-10@|%%|%c|%hd|%hhd|%lu|%5.1e|%-+6d|%#X|%+.3g", "s", "right", "left", 65, 70000, 300, -1, 12345.678, 42, 255, 2.0 / 3))
print(String(format: "%1$@ %2$@ %1$@", "a", "b"), String(format: "%2$d/%1$d", 1, 2))
print(String(format: "%.3@|%5.2f%%", "abcdef", 99.5))
print(String(format: "%f %f %f", Double.infinity, -Double.infinity, Double.nan), String(format: "%5.1f", -0.04))
print(String(format: "%d", Int.max), String(format: "%ld", Int.max), String(format: "%x", -1), String(format: "%lx", -1))
print(String(format: "%.2f", 1e20), String(format: "%a", 1.0), String(format: "no conversions"), String(format: "%d%%", 50))

let price = 4.5
let quantity = 3
let name = "apples"
print(String(format: "%d %@ at $%.2f = $%.2f", quantity, name, price, price * Double(quantity)))
let rows = [("tea", 3.5), ("coffee", 12.25)]
for (item, cost) in rows {
    print(String(format: "%@: %6.2f", item, cost))
}
let format = "%03d-%@"
print(String(format: format, 7, "x"))
