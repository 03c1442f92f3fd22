import Combine
// A view model of Doubles: @Published arrays, a computed average, a subject's value.
final class CartViewModel {
    @Published var prices: [Double] = []
    @Published var discount: Double = 0
    var average: Double { prices.isEmpty ? 0 : prices.reduce(0, +) / Double(prices.count) }
    private var bag = Set<AnyCancellable>()
    init() {
        $prices
            .map { prices in prices.reduce(0, +) * (1 - self.discount) }
            .sink { print("total", $0) }
            .store(in: &bag)
    }
    func add(_ price: Double) { prices.append(price) }
}
let vm = CartViewModel()
vm.add(3)
vm.add(4)
vm.discount = 0.5
print(vm.average, vm.prices)
class Thermostat {
    var target: Double = 20
    let subject = CurrentValueSubject<Double, Never>(18)
}
let t = Thermostat()
t.target = 21
t.target += 1
print("target", t.target)
t.subject.value = 19
t.subject.send(20)
print(t.subject.value / 3)
