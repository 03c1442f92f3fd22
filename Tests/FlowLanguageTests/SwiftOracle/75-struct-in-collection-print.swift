// Structs inside collections and optionals print with the module prefix (main.).
struct Point { let x: Int; let y: Int }
let ps = [Point(x: 1, y: 2)]
print(ps)
let maybe: Point? = Point(x: 3, y: 4)
print(maybe as Any)
enum Mode { case on, off }
print([Mode.on, Mode.off])
