// `(self.x, self.y) = f()` in a method.
final class Cursor {
    var x = 0
    var y = 0
    func home() -> (Int, Int) { (1, 1) }
    func reset() {
        (self.x, self.y) = home()
    }
    func swap() { (x, y) = (y, x + 5) }
}
let c = Cursor()
c.reset()
print(c.x, c.y)
c.swap()
print(c.x, c.y)
