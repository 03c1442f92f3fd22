// flow-soak: runs one script on the live clock for a while and samples the
// process's memory, to show that a long run stays flat: a stream of
// timers, subjects, HTTP-free I/O and operators that allocate per event.
//
//   swift build && swift run flow-soak [SECONDS] [--flow PATH] [SCRIPT]
//
// Prints the resident memory every few seconds and the growth from the
// first sample after warm-up to the last; exits 1 if it grew by more than
// half. Not a test (docs/reliability.md).
import Foundation
import FlowTestSupport

var arguments = Array(CommandLine.arguments.dropFirst())
var flow = FlowProcess.defaultBinary
if let at = arguments.firstIndex(of: "--flow"), at + 1 < arguments.count {
    flow = URL(fileURLWithPath: arguments[at + 1])
    arguments.removeSubrange(at...at + 1)
}
let seconds = arguments.first.flatMap(Double.init) ?? 60
let defaultScript = """
    let ticks = interval(1ms)
    let words = ticks.map { "w\\($0 % 97)" }
    let counts = words.buffer(timeSpan: 50ms, count: 20).map { $0.count }
    let latest = ticks.flatMapLatest { n in timer(2ms).map { _ in n } }
    let merged = merge(counts, latest.sample(interval(10ms)))
      .scan(0) { $0 + $1 }
      .distinctUntilChanged()
      .share()
    merged.debounce(3ms).sink { _ in }
    merged.throttle(5ms, latest: true).combineLatest(ticks).sink { _ in }
    """
let script: String
if let path = arguments.dropFirst().first { script = try String(contentsOfFile: path, encoding: .utf8) } else { script = defaultScript }

let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-soak-\(UUID().uuidString).flow").path
try script.write(toFile: path, atomically: true, encoding: .utf8)
defer { try? FileManager.default.removeItem(atPath: path) }

let (process, out, _) = try FlowProcess.start([path], binary: flow)
// Drain the output so the run never blocks on a full pipe.
Thread.detachNewThread { while !out.fileHandleForReading.availableData.isEmpty {} }

func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

let started = Date()
var samples: [(Double, Int)] = []
while Date().timeIntervalSince(started) < seconds, process.isRunning {
    Thread.sleep(forTimeInterval: min(5, seconds / 12))
    let sample = (Date().timeIntervalSince(started), residentKB())
    samples.append(sample)
    print(String(format: "%6.1f s  %6d KB", sample.0, sample.1))
}
let ranToTheEnd = process.isRunning
process.interrupt()
process.waitUntilExit()
guard ranToTheEnd, samples.count >= 3 else {
    print("the run ended early (status \(process.terminationStatus))")
    exit(1)
}
// The first sample is warm-up; compare the second with the last.
let first = samples[1].1, last = samples[samples.count - 1].1
let growth = Double(last - first) / Double(max(first, 1))
print(String(format: "resident memory from %d KB to %d KB: %+.1f%%", first, last, growth * 100))
exit(growth > 0.5 ? 1 : 0)
