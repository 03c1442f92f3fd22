// A view model's own `subscriptions` property, with AnyCancellable.store(in:).
import Combine
final class ViewModel {
    var subscriptions = Set<AnyCancellable>()
    let input = PassthroughSubject<String, Never>()
    var value = ""
    func bind() {
        input.map { $0.uppercased() }.sink { [unowned self] in self.value = $0 }.store(in: &subscriptions)
    }
}
let vm = ViewModel()
vm.bind()
vm.input.send("hello")
print(vm.value)
print(vm.subscriptions.count)
