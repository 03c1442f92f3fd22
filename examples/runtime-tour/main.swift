// The contract's purchase button, written against the Swift API of the
// runtime: a balance and a price combined into "can buy", run in virtual
// time and drawn as marble lanes.
//
//   swift run runtime-tour
import FlowMarbles
import FlowRuntime

let balance = try ColdStream("a----b---|", values: ["a": 5, "b": 25])
let price = Observable.just(10)
let canBuy = Observable.combineLatest([balance, price]).map(.unary { pair in
    let parts = pair.tupleElements!
    return .bool(try parts[0].compare(to: parts[1]) >= 0)
})

// Record each stream on one virtual clock.
let scheduler = VirtualScheduler()
let lanes: [(String, Observable)] = [("balance", balance), ("price", price), ("canBuy", canBuy)]
let recorders = lanes.map { _ in EventRecorder(scheduler: scheduler) }
for ((_, stream), recorder) in zip(lanes, recorders) { stream.subscribe(recorder, on: scheduler) }
scheduler.run()

var legend = MarbleLegend(presets: ["a": 5, "b": 25, "t": true, "f": false, "p": 10])
for ((name, _), recorder) in zip(lanes, recorders) {
    let lane = MarbleRenderer.render(recorder.events, legend: &legend)
    print(name + String(repeating: " ", count: 9 - name.count) + lane.text)
}
print("legend:  ", legend.explanations(for: Set("abtfp")).joined(separator: ", "))

// The same expectation a teacher would write in a script.
let run = MarbleRun()
try run.expect(canBuy, toBe: "a----b---|", values: ["a": false, "b": true])
let failures = run.run()
print(failures.isEmpty ? "expectation met: canBuy is a----b---| with a = false, b = true" : failures.map(\.message).joined(separator: "\n"))
