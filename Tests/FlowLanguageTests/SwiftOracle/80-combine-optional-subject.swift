// PassthroughSubject<Int?, Never>: `sink { print($0 as Any) }` prints Optional(...) and nil.
import Combine
let subject = PassthroughSubject<Int?, Never>()
let c = subject.sink { print($0 as Any) }
subject.send(1)
subject.send(nil)
subject.send(3)
subject.send(completion: .finished)
