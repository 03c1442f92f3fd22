@testable import FlowIO
import FlowTestSupport
import Testing

/// What a sink asks after its COMMIT went unanswered: whether the
/// transaction committed. A server that crashed before the transaction's id
/// was made durable hands out lower ids once it is back, and answers that
/// one "is in the future": it never committed, and the batch is written
/// again (seen in one restart of two hundred under load, where the run
/// failed instead of resuming). The pool is asked on a thread of its own
/// (ThreadExecutor): on the cooperative pool, which the suite's other tests
/// can hold for minutes, the server gave up on a login left unanswered.
@Suite(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
struct TransactionStatusTests {
    let pool = DatabasePool.shared(for: try! DatabaseAddress.parse(TestDatabase.url ?? "postgres://unused"))

    /// What the server says of the transaction `ahead` ids after the last it gave.
    func status(ahead: Int64) async throws -> String {
        let pool = self.pool
        return try await withTaskExecutorPreference(ThreadExecutor.shared) {
            let current = try await pool.withConnection { lease in
                try await lease.rows(of: "SELECT txid_current()", within: .seconds(10)).first!.decode(Int64.self)
            }
            return try await RowWriter.status(of: current + ahead, pool: pool)
        }
    }

    @Test func aCommittedTransactionIsCommitted() async throws {
        #expect(try await status(ahead: 0) == "committed")
    }

    @Test func anIdTheServerHasNotGivenOutIsATransactionThatNeverCommitted() async throws {
        #expect(try await status(ahead: 1_000_000) == "aborted")
    }
}
