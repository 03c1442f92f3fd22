import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// `flow doc`, as a user runs it.
@Suite struct DocCommandTests {
    func flow(_ arguments: [String]) throws -> FlowProcess.Result { try CommandLineTests.flow(arguments) }

    @Test func docAloneListsEveryOperatorByFamily() throws {
        let result = try flow(["doc"])
        #expect(result.status == 0)
        for family in OperatorSpec.Family.allCases { #expect(result.out.contains(family.rawValue + "\n")) }
        #expect(result.out.contains("  EMPTY, NEVER, cold, expect, hot, marbles, notation, time, type\n"))
        let notation = try flow(["doc", "notation"])
        #expect(notation.out.hasPrefix("The marble notation"))
    }

    @Test func docCommand() throws {
        let result = try flow(["doc", "switchMap"])
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("flatMapLatest(Closure) — maps each value to a stream, cancelling the previous one"))
        #expect(result.out.contains("aliases: switchMap"))
        #expect(result.out.contains("--c-d-e-|"))
        let unknown = try flow(["doc", "debounc"])
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("did you mean 'debounce'?"))
    }

    @Test func docCommandShowsModules() throws {
        let module = try flow(["doc", "http"])
        #expect(module.status == 0)
        #expect(module.out.hasPrefix("http: "))
        #expect(module.out.contains("  http.get(String, headers: Value?, timeout: Duration?) — "))
        #expect(module.out.contains("  value.json() — "))
        let function = try flow(["doc", "file.tail"])
        #expect(function.status == 0)
        #expect(function.out.hasPrefix("file.tail(String, every: Duration?) — "))
        let typo = try flow(["doc", "http.gte"])
        #expect(typo.status == 2)
        #expect(typo.err.contains("no module function 'http.gte'; did you mean 'http.get'?"))
        // A module's method by its name alone.
        let method = try flow(["doc", "decode"])
        #expect(method.status == 0)
        #expect(method.out.hasPrefix("stream.decode(type: Value, decoder: Value?) — "))
        #expect(method.out.contains("(from the json module)"))
    }

    /// A module whose functions reach a server shows a typical call of
    /// each, since no diagram can.
    @Test func docCommandShowsTheDatabaseModuleWithExamples() throws {
        let module = try flow(["doc", "pg"])
        #expect(module.status == 0)
        #expect(module.out.hasPrefix("pg: PostgreSQL"))
        for name in ["query", "listen", "notify", "insert", "execute", "queue"] {
            #expect(module.out.contains("  pg.\(name)("), "pg.\(name) is listed")
        }
        #expect(module.out.contains("      e.g. pg.query(\"SELECT id, total FROM orders WHERE total > $1\", [100])"))
        let queue = try flow(["doc", "pg.queue"])
        #expect(queue.status == 0)
        #expect(queue.out.hasPrefix("pg.queue(String, batch: Int?, done: String?, every: Duration?, drain: Bool?, url: String?, Closure?) — "))
        #expect(queue.out.contains("    e.g. pg.queue(\"jobs\", batch: 20) { job in http.post(job.url) }"))
    }
}
