@testable import FlowIO
import FlowTestSupport
import Testing

/// What a sink asks after its COMMIT went unanswered: whether the
/// transaction committed. A server that crashed before the transaction's id
/// was made durable hands out lower ids once it is back, and answers that
/// one "is in the future": it never committed, and the batch is written
/// again (seen in one restart of two hundred under load, where the run
/// failed instead of resuming).
@Suite(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
struct TransactionStatusTests {
    let pool = DatabasePool.shared(for: try! DatabaseAddress.parse(TestDatabase.url ?? "postgres://unused"))

    @Test func aCommittedTransactionIsCommitted() async throws {
        let current = try await pool.withConnection { lease in
            try await lease.rows(of: "SELECT txid_current()", within: .seconds(10)).first!.decode(Int64.self)
        }
        #expect(try await RowWriter.status(of: current, pool: pool) == "committed")
    }

    @Test func anIdTheServerHasNotGivenOutIsATransactionThatNeverCommitted() async throws {
        let current = try await pool.withConnection { lease in
            try await lease.rows(of: "SELECT txid_current()", within: .seconds(10)).first!.decode(Int64.self)
        }
        #expect(try await RowWriter.status(of: current + 1_000_000, pool: pool) == "aborted")
    }
}
