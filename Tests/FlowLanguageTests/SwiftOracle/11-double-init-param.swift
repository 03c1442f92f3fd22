// An initialiser's Double parameter and a default Double value.
final class Thermostat {
    var target: Double
    let step: Double
    init(target: Double, step: Double = 1) {
        self.target = target
        self.step = step
    }
    func raise() { target += step / 2 }
}
let t = Thermostat(target: 20)
t.raise()
print(t.target)
print(t.step)
