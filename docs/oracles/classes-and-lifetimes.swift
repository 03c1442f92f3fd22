// What Swift and Combine do with classes and their lifetimes, as flow's
// classes follow them: @Published and objectWillChange, assign(to: &$x),
// a view model whose [weak self] subscriptions end with it, AnyCancellable
// and Set<AnyCancellable>, and deinit order. Run against OpenCombine 0.14
// (Combine's open-source implementation) as a plain Swift program; it is
// not part of flow's build. To run it, make an executable package that
// depends on https://github.com/OpenCombine/OpenCombine 0.14.0 (product
// OpenCombine) with this file as its main.swift.
//
// What it printed, on 2026-11-27:
//
//   published: ["total 0, was 0", "will change", "will change", "total 3, was 0", "will change", "total 10, was 3"]
//   assign(to:): [false, false, true, false]
//   view model: ["vm saw 1", "vm saw 2", "vm deinit"]
//   cancellables: ["c got 1", "stored 1", "stored 2"]
//   deinit: ["still held", "resource 3", "file 4", "resource 4"]
//
// (The cancellables are sorted: OpenCombine keeps a subject's subscribers
// in a set, so the order in which two of them receive one value is not
// defined there.) Tests/FlowLanguageTests/Scripts/classes.flow checks
// flow against each line.

import OpenCombine

final class Cart: ObservableObject {
    @Published var items: [String] = []
    @Published var total = 0
    func add(_ item: String, price: Int) {
        items.append(item)
        total += price
    }
}
var seen: [String] = []
let cart = Cart()
let totals = cart.$total.sink { seen.append("total \($0), was \(cart.total)") }
let changes = cart.objectWillChange.sink { _ in seen.append("will change") }
cart.add("apple", price: 3)
cart.total = 10
print("published:", seen)

final class Form {
    @Published var name = ""
    @Published var isValid = false
    init(names: PassthroughSubject<String, Never>) {
        names.assign(to: &$name)
        $name.map { $0.count >= 3 }.assign(to: &$isValid)
    }
}
let names = PassthroughSubject<String, Never>()
let form = Form(names: names)
var valid: [Bool] = []
let v = form.$isValid.sink { valid.append($0) }
names.send("al"); names.send("ada"); names.send("")
print("assign(to:):", valid)

let ticks = PassthroughSubject<Int, Never>()
var log: [String] = []
final class ViewModel {
    @Published var last = 0
    var cancellables = Set<AnyCancellable>()
    let name: String
    init(name: String) {
        self.name = name
        ticks.sink { [weak self] value in self?.last = value }.store(in: &cancellables)
        $last.dropFirst().sink { [name] in log.append("\(name) saw \($0)") }.store(in: &cancellables)
    }
    deinit { log.append("\(name) deinit") }
}
var vm: ViewModel? = ViewModel(name: "vm")
ticks.send(1)
ticks.send(2)
vm = nil
ticks.send(3)
print("view model:", log)

log = []
var c: AnyCancellable? = ticks.sink { log.append("c got \($0)") }
var all = Set<AnyCancellable>()
ticks.sink { log.append("stored \($0)") }.store(in: &all)
ticks.send(1)
c = nil
ticks.send(2)
all.removeAll()
ticks.send(3)
print("cancellables:", log.sorted())

class Resource {
    let id: Int
    init(id: Int) { self.id = id }
    deinit { log.append("resource \(id)") }
}
final class File: Resource {
    deinit { log.append("file \(id)") }
}
log = []
var first: Resource? = File(id: 1)
let second = first
first = nil
log.append("still held")
var third: Resource? = Resource(id: 3)
third = nil
var file: File? = File(id: 4)
file = nil
print("deinit:", log)
_ = second
_ = (totals, changes, v)
