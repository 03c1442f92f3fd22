// Workloads W1–W7 of docs/peers.md, written against the runtime's
// Swift API with Swift closures, and as scripts. Prints nanoseconds per
// event (median and best of several runs after a warm-up: on a shared
// machine the best run is the least disturbed one), the result to check,
// and the median's speed-up over the fastest peer library.
//
//   swift run -c release Benchmarks [--runs N] [WORKLOAD...]     (W1 … W7, W1s … W7s for the scripts,
//                                                                  L1 … L3 for inputs that were once quadratic)
import FlowLanguage
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

struct Workload {
    let id: String
    let title: String
    /// Events the workload processes, for the per-event figure.
    let events: Int
    let expected: Value
    /// The fastest peer's ns/event from peers.md.
    let fastestPeer: (name: String, nanoseconds: Double)
    let body: () -> Value
}

/// Subscribes on a fresh virtual scheduler, runs it, returns the last value.
func lastValue(_ stream: Observable) -> Value {
    let scheduler = VirtualScheduler()
    var last = Value.null
    stream.subscribe(on: scheduler, onNext: { last = $0 })
    scheduler.run()
    return last
}

let double = Function.unary { v in try Value.multiply(v, 2) }
let divisibleBy3 = Function.unary { v in .bool(try Value.remainder(v, 3) == 0) }
let sum = Function.binary { a, b in try Value.add(a, b) }

let workloads: [Workload] = [
    Workload(id: "W1", title: "range → map → filter → scan → last", events: 1_000_000, expected: 333_333_666_666,
             fastestPeer: ("OpenCombine (Int)", 276)) {
        lastValue(Observable.range(start: 0, count: 1_000_000).map(double).filter(divisibleBy3).scan(0, sum).last())
    },
    Workload(id: "W2", title: "merge of 1000 ranges of 1000 → count", events: 1_000_000, expected: 1_000_000,
             fastestPeer: ("OpenCombine (Int)", 403)) {
        lastValue(Observable.merge((0..<1000).map { _ in Observable.range(start: 0, count: 1000) }).count())
    },
    Workload(id: "W3", title: "combineLatest of two subjects, 500 000 values each → count", events: 1_000_000,
             expected: 999_999, fastestPeer: ("OpenCombine (Int)", 324)) {
        let scheduler = VirtualScheduler()
        let a = PublishSubject(), b = PublishSubject()
        var count = Value.null
        Observable.combineLatest([a, b], combine: sum).count().subscribe(on: scheduler, onNext: { count = $0 })
        for i in 0..<500_000 {
            a.send(.int(i))
            b.send(.int(i))
        }
        a.complete()
        b.complete()
        return count
    },
    Workload(id: "W4", title: "range(0, 100 000) → flatMap { range(0, 10) } → count", events: 1_000_000, expected: 1_000_000,
             fastestPeer: ("OpenCombine (Int)", 519)) {
        lastValue(Observable.range(start: 0, count: 100_000).flatMap(.unary { _ in .stream(.range(start: 0, count: 10)) }).count())
    },
    Workload(id: "W5", title: "subject of 100 000 one-value streams → switchLatest → count", events: 100_000, expected: 100_000,
             fastestPeer: ("OpenCombine (Int)", 689)) {
        let scheduler = VirtualScheduler()
        let subject = PublishSubject()
        var count = Value.null
        subject.map(.unary { .stream(.just($0)) }).switchLatest().count().subscribe(on: scheduler, onNext: { count = $0 })
        for i in 0..<100_000 { subject.send(.int(i)) }
        subject.complete()
        return count
    },
    Workload(id: "W6", title: "100 000 × (build range(0, 1) → map, subscribe, dispose)", events: 100_000, expected: 100_000,
             fastestPeer: ("OpenCombine (Int)", 1500)) {
        let scheduler = VirtualScheduler()
        var received = 0
        for _ in 0..<100_000 {
            let subscription = Observable.range(start: 0, count: 1).map(double).subscribe(on: scheduler, onNext: { _ in received += 1 })
            subscription.dispose()
        }
        return .int(received)
    },
    Workload(id: "W7", title: "virtual clock: interval(1ms) → take(100 000) → count", events: 100_000, expected: 100_000,
             fastestPeer: ("OpenCombine (dynamic)", 359)) {
        lastValue(Observable.interval(.milliseconds(Int64(1))).take(100_000).count())
    },
]

/// The same workloads as `.flow` scripts run by the interpreter, closures
/// interpreted. Each script prints its result; compiling is not timed.
func scriptWorkload(_ swift: Workload) -> Workload {
    let path = "Benchmarks/scripts/\(swift.id.lowercased()).flow"
    let source = (try? SourceFile.load(path: path)) ?? SourceFile(path: path, text: "print(\"missing \(path): run from the project folder\")")
    return Workload(id: swift.id + "s", title: "script " + path, events: swift.events, expected: swift.expected,
                    fastestPeer: swift.fastestPeer) {
        final class Printed: @unchecked Sendable { var lines: [String] = [] }
        let printed = Printed()
        let console = Console(out: { printed.lines.append($0) }, err: { printed.lines.append("error: " + $0) }, color: false)
        do {
            let program = try Program(file: source, console: console)
            _ = program.run(on: .virtual)
        } catch {
            return .string("does not compile: \(error)")
        }
        return printed.lines.last.flatMap { Int($0) }.map(Value.int) ?? .string(printed.lines.joined(separator: " "))
    }
}

func measure(_ workload: Workload, runs: Int) -> (median: Double, best: Double, result: Value) {
    var result = workload.body()  // warm-up, twice: the first run also pays for page faults and clock ramp-up
    result = workload.body()
    var samples: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let elapsed = clock.measure { result = workload.body() }
        let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        samples.append(ns / Double(workload.events))
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0], result)
}

var runs = 11
var selected: Set<String> = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--runs", let n = arguments.popFirst().flatMap(Int.init) { runs = max(1, n) } else { selected.insert(argument) }
}

func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
func format(_ x: Double) -> String {
    let rounded = (x * 10).rounded() / 10
    return rounded >= 100 ? String(Int(rounded)) : String(rounded)
}

print(pad("id", 4), pad("median", 8), pad("best", 8), pad("result", 14), pad("fastest peer (ns/event)", 32), "speed-up", "  workload")
var allCorrect = true
let everything = workloads + workloads.map(scriptWorkload)
for workload in everything where selected.isEmpty || selected.contains(workload.id) {
    let (median, best, result) = measure(workload, runs: runs)
    let correct = result == workload.expected
    allCorrect = allCorrect && correct
    let peer = "\(workload.fastestPeer.name) \(format(workload.fastestPeer.nanoseconds))"
    print(pad(workload.id, 4), pad(format(median), 8), pad(format(best), 8), pad(result.description + (correct ? "" : " WRONG"), 14),
          pad(peer, 32), pad(format(workload.fastestPeer.nanoseconds / median) + "x", 8), "  " + workload.title)
}

/// Inputs that were once quadratic, each at n and at 10n: linear work takes
/// about ten times as long (`L1` … `L3`, selected like the workloads).
struct Scaling {
    let id: String
    let title: String
    let n: Int
    let script: (Int) -> String
    /// Compile only (`flow check`), or compile and run in virtual time.
    let runs: Bool
    /// The same work in Swift, for its figure at 10n beside flow's.
    var swift: ((Int) -> Int)? = nil
}

/// Keeps a result alive, so the optimiser cannot drop the loop that made it.
@inline(never) func keep(_ value: Int) -> Int { value }

let scalings = [
    Scaling(id: "L1", title: "a startWith chain built in a loop", n: 2_000, script: { n in
        "var s = just(0)\nfor i in 0..<\(n) { s = s.startWith(i) }\ns.count().sink { print($0) }\n"
    }, runs: true),
    Scaling(id: "L2", title: "unclosed interpolations, one a line (checked)", n: 1_000, script: { n in
        String(repeating: "let s = \"\\(\n", count: n)
    }, runs: false),
    Scaling(id: "L3", title: "one mistake repeated, one a line (checked; diagnostics capped)", n: 10_000, script: { n in
        String(repeating: "nope()\n", count: n)
    }, runs: false),
    // Value semantics at Swift's cost: a var collection changed in a loop
    // is copied only when shared, so each loop is linear.
    Scaling(id: "L4", title: "a.append(i) in a loop", n: 20_000, script: { n in
        "var a: [Int] = []\nfor i in 0..<\(n) { a.append(i) }\nprint(a.count)\n"
    }, runs: true, swift: { n in var a: [Int] = []; for i in 0..<n { a.append(i) }; return keep(a.count) }),
    Scaling(id: "L5", title: "d[i] = i in a loop (dictionary inserts)", n: 20_000, script: { n in
        "var d: [Int: Int] = [:]\nfor i in 0..<\(n) { d[i] = i }\nprint(d.count)\n"
    }, runs: true, swift: { n in var d: [Int: Int] = [:]; for i in 0..<n { d[i] = i }; return keep(d.count) }),
    Scaling(id: "L6", title: "a[i] = i in a loop (element writes)", n: 20_000, script: { n in
        "var a = [Int](repeating: 0, count: \(n))\nfor i in 0..<\(n) { a[i] = i }\nprint(a.count)\n"
    }, runs: true, swift: { n in var a = [Int](repeating: 0, count: n); for i in 0..<n { a[i] = i }; return keep(a.count) }),
    Scaling(id: "L7", title: "a += [i] in a loop", n: 20_000, script: { n in
        "var a: [Int] = []\nfor i in 0..<\(n) { a += [i] }\nprint(a.count)\n"
    }, runs: true, swift: { n in var a: [Int] = []; for i in 0..<n { a += [i] }; return keep(a.count) }),
    Scaling(id: "L8", title: "reduce(into: []) { $0.append($1) }", n: 20_000, script: { n in
        "print((0..<\(n)).reduce(into: [Int]()) { $0.append($1) }.count)\n"
    }, runs: true, swift: { n in keep((0..<n).reduce(into: [Int]()) { $0.append($1) }.count) }),
    // Each step's state is sent on: counted, it is not kept, so the next
    // step changes it in place (a `last()` keeping each one would make
    // every step copy, in Swift's libraries as here).
    Scaling(id: "L9", title: "scan(into: []) { $0.append($1) } of a stream, counted", n: 20_000, script: { n in
        "range(0, \(n)).scan(into: [Int]()) { $0.append($1) }.map { $0.count }.last().sink { print($0) }\n"
    }, runs: true, swift: { n in var a: [Int] = []; for i in 0..<n { a.append(i) }; return keep(a.count) }),
]

func seconds(_ scaling: Scaling, _ n: Int) -> Double {
    let file = SourceFile(path: "\(scaling.id).flow", text: scaling.script(n))
    let console = Console(out: { _ in }, err: { _ in }, color: false)
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        if scaling.runs {
            _ = (try? Program(file: file, console: console))?.run(on: .virtual)
        } else {
            _ = try? Program.check(file)
        }
    }
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

let chosenScalings = scalings.filter { selected.isEmpty || selected.contains($0.id) }
if !chosenScalings.isEmpty {
    print("")
    print(pad("id", 4), pad("n", 8), pad("time", 10), pad("10n", 8), pad("time", 10), pad("ratio", 8), pad("Swift, 10n", 12), "  input")
    for scaling in chosenScalings {
        _ = seconds(scaling, scaling.n)
        let small = (0..<3).map { _ in seconds(scaling, scaling.n) }.min()!
        let large = (0..<3).map { _ in seconds(scaling, scaling.n * 10) }.min()!
        let native = scaling.swift.map { loop in
            (0..<3).map { _ in
                let elapsed = ContinuousClock().measure { _ = loop(scaling.n * 10) }
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }.min()!
        }
        print(pad(scaling.id, 4), pad(String(scaling.n), 8), pad(format(small * 1000) + " ms", 10), pad(String(scaling.n * 10), 8),
              pad(format(large * 1000) + " ms", 10), pad(format(large / small) + "x", 8),
              pad(native.map { format($0 * 1000) + " ms" } ?? "", 12), "  " + scaling.title)
    }
}

/// Peak resident memory of this process: for W1 alone it shows that a
/// streaming pipeline's memory does not grow with the number of events.
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
print("peak memory: \(usage.ru_maxrss / 1024) MB")
if !allCorrect {
    print("some results are wrong")
    exit(1)
}
