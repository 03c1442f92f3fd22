// sink(receiveCompletion:receiveValue:) with a typed error; completions printed.
import Combine
enum LoadError: Error, CustomStringConvertible {
    case offline
    var description: String { "the network is offline" }
}
let subject = PassthroughSubject<Double, LoadError>()
let c = subject.sink(
    receiveCompletion: { print("completion: \($0)") },
    receiveValue: { print("value: \($0)") })
subject.send(1)
subject.send(completion: .failure(.offline))
subject.send(2)
let d = Just(1).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
