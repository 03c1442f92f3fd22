// Optionals through operators: Int("x") in map gives nil; compactMap drops it.
import Combine
let input = PassthroughSubject<String, Never>()
let numbers = PassthroughSubject<String, Never>()
let c1 = input.map { Int($0) }.sink { print($0 as Any) }
let c2 = numbers.compactMap { Int($0) }.sink { print("int \($0)") }
for s in ["12", "x"] {
    input.send(s)
    numbers.send(s)
}
let c3 = Just<String?>(nil).replaceNil(with: "default").sink { print($0) }
