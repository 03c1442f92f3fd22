import FlowLanguage
import Testing

/// The `print` and `debug` operators show each value as the `print`
/// function does at the same place: a type's `description`, an enum case
/// with its type inside a collection, strings quoted inside one.
@Suite struct PrintOperatorTests {
    static let script = """
        import Combine
        enum Phase: CustomStringConvertible {
            case idle, busy
            var description: String {
                switch self {
                case .idle: return "Idle"
                case .busy: return "Busy"
                }
            }
        }
        enum Step { case start, stop }
        struct Point { let x: Int; let y: Int }
        let subject = PassthroughSubject<Phase, Never>()
        let c = subject.print("phase").sink { _ in }
        subject.send(.idle)
        subject.send(.busy)
        let d = [[Phase.idle, Phase.busy]].publisher.print("nested").sink { _ in }
        let e = [Point(x: 1, y: 2)].publisher.print("point").sink { _ in }
        let f = ["a", "b"].publisher.collect().print("strings").sink { _ in }
        let g = [[Step.start]].publisher.print("steps").sink { _ in }
        """

    /// The values' lines as OpenCombine 0.14 printed them for this program
    /// (Combine's format), with the module prefix (`main.`) removed that
    /// Swift gives a type inside a collection and a script has not.
    static let combinePrinted = [
        "phase: receive value: (Idle)", "phase: receive value: (Busy)",
        "nested: receive value: ([Idle, Busy])",
        "point: receive value: (Point(x: 1, y: 2))",
        "strings: receive value: ([\"a\", \"b\"])",
        "steps: receive value: ([Step.start])",
    ]

    @Test func printShowsValuesAsCombinesDoes() throws {
        let result = try runScript(Self.script)
        #expect(result.err.isEmpty, "\(result.err)")
        #expect(result.out.filter { $0.contains("receive value") } == Self.combinePrinted, "\(result.out)")
    }

    @Test func debugShowsADescriptionAsRxSwiftsDoes() throws {
        let result = try runScript(Self.script + "\nlet h = [Phase.busy].publisher.debug(\"rx\").subscribe(onNext: { _ in })")
        #expect(result.out.contains { $0.hasSuffix("rx -> Event next(Busy)") }, "\(result.out)")
    }

    /// A type declared in a test block has its description read from the
    /// test's frame, where the operator was called.
    @Test func aDescriptionDeclaredInATestIsShown() throws {
        let result = try runScript("""
            test "tags" {
                struct Tag: CustomStringConvertible {
                    let n: Int
                    var description: String { "#\\(n)" }
                }
                let shown = just(Tag(n: 7)).print("tag")
                expect(shown.map { $0.n }).toBe("(a|)", a: 7)
            }
            """)
        #expect(result.tests.map(\.1.passed) == [true], "\(result.tests)")
        #expect(result.out.contains("tag: receive value: (#7)"), "\(result.out) \(result.err)")
    }
}
