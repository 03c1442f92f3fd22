// zip of two Double subjects: the average is not truncated. (OpenCombine 0.14 has no combineLatest.)
import Combine
let a = CurrentValueSubject<Double, Never>(1)
let b = CurrentValueSubject<Double, Never>(2)
let c = a.zip(b).map { ($0 + $1) / 2 }.sink { print($0) }
a.send(4)
b.send(5)
a.send(3)
