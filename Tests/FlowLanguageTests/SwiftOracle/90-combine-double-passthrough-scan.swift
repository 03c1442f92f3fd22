// PassthroughSubject<Double, Never> fed integer literals; scan and reduce keep Doubles.
import Combine
let prices = PassthroughSubject<Double, Never>()
let c1 = prices.scan(0, +).sink { print("running \($0)") }
let c2 = prices.reduce(0, +).map { $0 / 4 }.sink { print("quarter \($0)") }
prices.send(3)
prices.send(2)
prices.send(completion: .finished)
