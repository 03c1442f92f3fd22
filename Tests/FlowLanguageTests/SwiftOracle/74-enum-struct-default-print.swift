// Default printing of enum cases and structs (no description).
enum Event { case tap, load(String), move(x: Int, y: Int) }
struct Size { let w: Int; let h: Double }
print(Event.tap)
print(Event.load("home"))
print(Event.move(x: 1, y: 2))
print(Size(w: 2, h: 3))
let s = Size(w: 1, h: 0.5)
print("size: \(s)")
print(String(describing: Event.load("x")))
