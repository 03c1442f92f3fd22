// A Void function whose last statement calls something that returns a value.
var items: [Int] = []
func add(_ x: Int) {
    items.append(x)
}
@discardableResult
func double(_ x: Int) -> Int { x * 2 }
func run() {
    double(4)
}
print(add(1))
print(run())
print(items)
print(double(3))
