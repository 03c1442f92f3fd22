// Initialisers overloaded by labels.
struct Temperature {
    let celsius: Double
    init(celsius: Double) { self.celsius = celsius }
    init(fahrenheit: Double) { self.celsius = (fahrenheit - 32) * 5 / 9 }
    init() { self.celsius = 0 }
}
print(Temperature(celsius: 20).celsius)
print(Temperature(fahrenheit: 212).celsius)
print(Temperature().celsius)
