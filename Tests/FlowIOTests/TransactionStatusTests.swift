@testable import FlowIO
import FlowTestSupport
import NIOCore
import PostgresNIO
import Testing

/// What a sink asks after its COMMIT went unanswered: whether the
/// transaction committed. A server that crashed before the transaction's id
/// was made durable hands out lower ids once it is back, and answers that
/// one "is in the future": it never committed, and the batch is written
/// again (seen in one restart of two hundred under load, where the run
/// failed instead of resuming).
///
/// The server's real answers are asked through postgres-nio's futures, on
/// its event loop: Swift's cooperative pool, which the suite's other tests
/// hold for minutes, is not needed (an async version of this test timed
/// out there waiting for a turn).
@Suite(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
struct TransactionStatusTests {
    /// What the server answers to `txid_status` of the id `ahead` of the
    /// last it gave: the status, or its refusal.
    func answer(ahead: Int64) throws -> Result<String, Error> {
        let address = try DatabaseAddress.parse(TestDatabase.url ?? "")
        let connection = try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(),
                                                        configuration: try address.configuration(), id: 1, logger: DatabasePool.logger).wait()
        defer { try? connection.close().wait() }
        let current = try connection.query("SELECT txid_current()", logger: DatabasePool.logger).wait().rows[0].decode(Int64.self)
        var bindings = PostgresBindings()
        bindings.append(current + ahead)
        let asked = PostgresQuery(unsafeSQL: "SELECT coalesce(txid_status($1), 'unknown')", binds: bindings)
        return Result { try connection.query(asked, logger: DatabasePool.logger).wait().rows[0].decode(String.self) }
    }

    @Test func aCommittedTransactionIsCommitted() throws {
        #expect(try answer(ahead: 0).get() == "committed")
    }

    @Test func anIdTheServerHasNotGivenOutIsATransactionThatNeverCommitted() throws {
        guard case .failure(let refusal) = try answer(ahead: 1_000_000) else {
            Issue.record("the server gave a status for an id it has not given out")
            return
        }
        #expect(RowWriter.status(whenRefused: refusal) == "aborted", "\(refusal)")
    }

    @Test func otherRefusalsAreNotAStatus() {
        #expect(RowWriter.status(whenRefused: ConnectionLost.closed) == nil)
    }
}
