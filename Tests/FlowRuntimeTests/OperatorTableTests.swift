import Foundation
import Testing

@testable import FlowRuntime

@Suite struct OperatorTableTests {
    let context = OperatorContext(output: { _ in })

    func call(_ name: String, on receiver: Value? = nil, _ args: [(String?, Value)] = []) throws -> Value {
        try operatorTable.call(name, receiver: receiver, labels: args.map(\.0), arguments: args.map(\.1), context: context)
    }

    @Test func everyIssueOperatorIsRegistered() {
        let required = """
            just of from range empty never error deferred interval timer subject behaviorSubject replaySubject send complete fail \
            map compactMap scan buffer window groupBy pairwise enumerated timestamp timeInterval \
            filter distinctUntilChanged distinct take takeLast takeWhile takeUntil skip skipWhile skipUntil elementAt first last \
            ignoreElements sample debounce throttle single merge concat zip combineLatest withLatestFrom startWith endWith amb \
            flatMap concatMap flatMapLatest flatMapFirst switchLatest catch catchAndReturn retry timeout delay delaySubscription \
            share publish connect do materialize dematerialize print reduce count toArray min max sum isEmpty contains allSatisfy \
            defaultIfEmpty
            """.split(separator: " ")
        for name in required { #expect(operatorTable.lookup(String(name)) != nil, "missing \(name)") }
    }

    @Test func aliasesResolveToTheCanonicalEntry() {
        let pairs = [("removeDuplicates", "distinctUntilChanged"), ("flatMapLatest", "flatMapLatest"), ("switchMap", "flatMapLatest"),
                     ("prefix", "take"), ("dropFirst", "skip"), ("handleEvents", "do"), ("tap", "do"),
                     ("replaceError(with:)", "catchAndReturn"), ("mergeMap", "flatMap"), ("race", "amb")]
        for (alias, canonical) in pairs { #expect(operatorTable.lookup(alias)?.name == canonical) }
    }

    /// One home per operator: `Operators/<Family>/<Name>.swift` defines the
    /// spec of each operator the family lists, and nothing defined there is
    /// left out of the catalog.
    @Test func everyOperatorLivesInItsFamilysFolderUnderItsOwnName() throws {
        let operators = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "../../Sources/FlowRuntime/Operators").standardized
        for family in OperatorSpec.Family.allCases {
            let folder = operators.appending(path: family.folder)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            var defined: Set<String> = []
            for file in files {
                let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("    static let ") {
                    let name = line.dropFirst("    static let ".count).prefix { $0 != " " }.filter { $0 != "`" }
                    defined.insert(String(name))
                }
            }
            for spec in family.operators {
                #expect(spec.family == family, "\(spec.name) is listed under \(family) but says \(spec.family)")
                let file = spec.name.prefix(1).uppercased() + spec.name.dropFirst() + ".swift"
                #expect(files.contains(file), "\(spec.name) has no file \(family.folder)/\(file)")
            }
            #expect(defined == Set(family.operators.map(\.name)), "\(family.folder) defines \(defined.sorted())")
            let tests = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "\(family.folder)Tests.swift")
            #expect(FileManager.default.fileExists(atPath: tests.path), "no \(tests.lastPathComponent)")
            let scripts = URL(filePath: #filePath).deletingLastPathComponent()
                .appending(path: "../FlowLanguageTests/Scripts/\(family.rawValue).flow").standardized
            #expect(FileManager.default.fileExists(atPath: scripts.path), "no Scripts/\(family.rawValue).flow")
        }
    }

    @Test func everyEntryHasADescriptionAndASignature() {
        for entry in operatorTable.entries {
            #expect(!entry.summary.isEmpty)
            #expect(!entry.signatures.isEmpty)
        }
    }

    @Test func callsBindLabelsAndOverloads() throws {
        let source = Value.stream(.range(start: 1, count: 4))
        let buffered = try call("buffer", on: source, [("count", 2)])
        #expect(values(collect(try buffered.asStream())) == [[1, 2], [3, 4]])
        let timed = try call("buffer", on: source, [("timeSpan", .duration(.milliseconds(Int64(1))))])
        #expect(values(collect(try timed.asStream())) == [[1, 2, 3, 4]])
        let scanned = try call("scan", on: source, [(nil, 0), (nil, .function(add))])
        #expect(values(collect(try scanned.asStream())) == [1, 3, 6, 10])
        let seedless = try call("scan", on: source, [(nil, .function(add))])
        #expect(values(collect(try seedless.asStream())) == [1, 3, 6, 10])
        let limited = try call("flatMap", on: source, [("maxConcurrent", 2), (nil, .function(fn { .stream(.just($0)) }))])
        #expect(values(collect(try limited.asStream())) == [1, 2, 3, 4])
    }

    @Test func methodAndFreeFunctionForms() throws {
        let a = Value.stream(.just(1)), b = Value.stream(.just(2))
        #expect(values(collect(try call("zip", [(nil, a), (nil, b)]).asStream())) == [.tuple([1, 2])])
        #expect(values(collect(try call("zip", on: a, [(nil, b)]).asStream())) == [.tuple([1, 2])])
        #expect(values(collect(try call("concat", on: a, [(nil, b)]).asStream())) == [1, 2])
        #expect(values(collect(try call("merge", [(nil, a), (nil, b)]).asStream())) == [1, 2])
        let zipped = try call("zip", [(nil, a), (nil, b), (nil, .function(add))])
        #expect(values(collect(try zipped.asStream())) == [3])
    }

    @Test func badCallsAreClearErrors() {
        func message(_ body: () throws -> Value) -> String {
            do { _ = try body(); return "" } catch { return FlowError.wrap(error).message }
        }
        #expect(message { try call("nope") } == "unknown operator 'nope'")
        #expect(message { try call("map", [(nil, .function(add))]) }.contains("is a method"))
        #expect(message { try call("interval", on: .stream(.never()), [(nil, 1)]) }.contains("free function"))
        #expect(message { try call("buffer", on: .stream(.never()), [("size", 2)]) }.contains("takes buffer(count: Int, skip: Int?) or buffer(timeSpan: Duration, count: Int?)"))
        #expect(message { try call("debounce", on: .stream(.never()), [(nil, "soon")]) }.contains("takes debounce(Duration, flushOnClose: Bool?)"))
        #expect(message { try call("map", on: 3, [(nil, .function(add))]) } == "map must be called on a stream, not on Int 3")
    }

    @Test func bindingIsStaticallyCheckableFromLabelsAlone() {
        let debounce = operatorTable.lookup("debounce")!.signatures[0]
        #expect(debounce.bind(labels: [nil], values: [nil]) != nil)
        #expect(debounce.bind(labels: ["after"], values: [nil]) == nil)
        #expect(debounce.bind(labels: [nil, nil], values: [nil, nil]) == nil)
    }
}
