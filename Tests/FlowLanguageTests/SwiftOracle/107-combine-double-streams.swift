import Combine
// Doubles through Combine operators: scan, reduce, map of Ints to Doubles, Zip, key paths, compactMap.
var bag = Set<AnyCancellable>()
let prices = PassthroughSubject<Double, Never>()
prices.scan(0, +).sink { print("total", $0) }.store(in: &bag)
prices.send(1)
prices.send(2)
let avg = [1.0, 2, 4].publisher.reduce(0, +).map { $0 / 3 }
avg.sink { print("avg", $0) }.store(in: &bag)
let counts = CurrentValueSubject<Int, Never>(3)
counts.map { Double($0) / 2 }.sink { print("half", $0) }.store(in: &bag)
let zipped = Publishers.Zip([1, 2].publisher, [0.5, 1.5].publisher).map { Double($0) * $1 }
zipped.sink { print("zipped", $0) }.store(in: &bag)
let sequence = [3, 4].publisher.map { $0 * 2 }.reduce(0.0) { $0 + Double($1) / 4 }
sequence.sink { print("seq", $0) }.store(in: &bag)
struct Reading { let value: Double }
let readings = PassthroughSubject<Reading, Never>()
readings.map(\.value).filter { $0 > 1 }.sink { print("reading", $0) }.store(in: &bag)
readings.send(Reading(value: 2))
readings.send(Reading(value: 1))
let opt = PassthroughSubject<Double?, Never>()
opt.compactMap { $0 }.sink { print("opt", $0) }.store(in: &bag)
opt.send(nil)
opt.send(4)
