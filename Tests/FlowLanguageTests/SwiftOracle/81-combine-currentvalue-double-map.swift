// CurrentValueSubject<Double, Never>(21).map { $0 / 2 } gives 10.5.
import Combine
let subject = CurrentValueSubject<Double, Never>(21)
let c = subject.map { $0 / 2 }.sink { print($0) }
subject.send(5)
print(subject.value)
