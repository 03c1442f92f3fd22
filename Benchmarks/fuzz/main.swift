// flow-fuzz: runs many generated scripts through the built `flow`, each in
// a subprocess with a time limit, and reports what happened: exit statuses,
// crashes, hangs, failures without a location, and the peak memory of a
// run. Every failure is printed with its seed; a seed reproduces its script.
//
//   swift build && swift run flow-fuzz [COUNT] [FIRST-SEED] [--flow PATH]
//   swift run flow-fuzz --show SEED        prints the script of one seed
//
// Not a test: it runs for as long as it is told to (docs/reliability.md).
import Foundation
import FlowTestSupport

var arguments = Array(CommandLine.arguments.dropFirst())
var flow = FlowProcess.defaultBinary
if let at = arguments.firstIndex(of: "--flow"), at + 1 < arguments.count {
    flow = URL(fileURLWithPath: arguments[at + 1])
    arguments.removeSubrange(at...at + 1)
}
if let at = arguments.firstIndex(of: "--show"), at + 1 < arguments.count, let seed = UInt64(arguments[at + 1]) {
    // The script of one seed, to reproduce a failure by hand.
    var generator = ScriptGenerator(seed: seed)
    print(generator.script(), terminator: "")
    exit(0)
}
let count = arguments.first.flatMap(Int.init) ?? 500
let firstSeed = arguments.dropFirst().first.flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
let limit = 30.0

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-fuzz-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

var statuses: [Int32: Int] = [:]
var problems: [(UInt64, String)] = []
let started = Date()
for seed in firstSeed..<firstSeed + UInt64(count) {
    var generator = ScriptGenerator(seed: seed)
    let path = folder.appendingPathComponent("fuzz-\(seed).flow").path
    try generator.script().write(toFile: path, atomically: true, encoding: .utf8)
    let result = try FlowProcess.runLimited(["run", "--virtual", "--max-memory", "256MB", path], megabytes: 4096, binary: flow, timeout: limit)
    if result.timedOut {
        problems.append((seed, "hang: still running after \(Int(limit)) s"))
    } else if result.crashed {
        problems.append((seed, "crash: status \(result.status)\n\(result.err.suffix(1500))"))
    } else {
        statuses[result.status, default: 0] += 1
        if result.status != 0, result.err.range(of: #"\.flow:\d+:\d+"#, options: .regularExpression) == nil {
            problems.append((seed, "no location in:\n\(result.err.prefix(800))"))
        }
    }
}
let seconds = Date().timeIntervalSince(started)
print("scripts tried: \(count), seeds \(firstSeed)..<\(firstSeed + UInt64(count)), in \(String(format: "%.1f", seconds)) s")
print("exit statuses: " + statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
// The largest resident size any one run reached (the children are reaped).
var usage = rusage()
getrusage(RUSAGE_CHILDREN.rawValue, &usage)
print("peak memory of one run: \(usage.ru_maxrss / 1024) MB")
print("crashes, hangs and unlocated failures: \(problems.count)")
for (seed, problem) in problems {
    var generator = ScriptGenerator(seed: seed)
    print("\n— seed \(seed): \(problem)\n\(generator.script())")
}
exit(problems.isEmpty ? 0 : 1)
