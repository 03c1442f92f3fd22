import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import FlowIO
import FlowLive
import FlowRuntime
import FlowTestSupport

/// Where a script's database is: URLs, and libpq's variables.
@Suite struct DatabaseAddressTests {
    @Test func aURLGivesEveryPart() throws {
        let address = try DatabaseAddress.parse("postgres://ada:p%40ss@db.example.com:6543/shop?sslmode=require&connect_timeout=3")
        #expect(address.user == "ada")
        #expect(address.password == "p@ss")
        #expect(address.host == "db.example.com")
        #expect(address.port == 6543)
        #expect(address.database == "shop")
        #expect(address.tls == .require)
        #expect(address.connectTimeout == .seconds(3))
        // Messages never show the password.
        #expect(address.shown == "postgres://ada@db.example.com:6543/shop")
    }

    @Test func anIPv6HostAndTheDefaults() throws {
        let address = try DatabaseAddress.parse("postgresql://ada@[::1]/shop")
        #expect(address.host == "::1")
        #expect(address.port == 5432)
        #expect(address.tls == .prefer)
        #expect(address.permissionHost == "[::1]")
        #expect(address.shown == "postgres://ada@[::1]:5432/shop")
    }

    @Test func badURLsSayWhatIsWrong() {
        func message(_ url: String) -> String {
            do { _ = try DatabaseAddress.parse(url); return "" } catch { return FlowError.wrap(error).message }
        }
        #expect(message("mysql://x/y").contains("a database URL starts with postgres://"))
        #expect(message("postgres://h:99999/db").contains("is not a number from 1 to 65535"))
        #expect(message("postgres://h/db?sslmode=always").contains("sslmode=always in the URL is not one of disable, prefer, require"))
        #expect(message("postgres://h/db?colour=red").contains("sets colour, which flow does not know"))
        #expect(message("postgres://a%zz@h/db").contains("broken %-escape"))
    }

    /// The repro: five parse errors printed the password, also from DATABASE_URL.
    /// A database host judged by its addresses (a rule names an address)
    /// is connected to at the address judged: the name is one no DNS
    /// knows, answered by a resolver that says 127.0.0.1 the first time
    /// and ::1 after (a rebinding); the connection reaches the listener on
    /// 127.0.0.1, and nothing the one at the same port on ::1. The pool a
    /// `pg` call is given is asked to connect here directly, on a thread of
    /// its own: the query's task would wait for a turn of the cooperative
    /// pool, which the tests running beside it can hold for minutes.
    @Test func aDatabaseNameIsConnectedToAtTheAddressJudged() async throws {
        let judged = try ClosingListener()
        defer { judged.shutdown() }
        // Where a second look-up would lead: absent where the machine has no IPv6.
        let rebound = try? ClosingListener(address: "::1", port: judged.port)
        defer { rebound?.shutdown() }
        let rebinding = RebindingResolver()
        var permissions = Permissions.everything(command: "flow run")
        permissions.deny(.net, "192.0.2.1")
        let database = DatabaseRun(access: Access(permissions, resolve: rebinding.resolve))
        let pool = try database.pool(for: try DatabaseAddress.parse("postgres://flow@flow-db.test:\(judged.port)/flow?sslmode=disable"), by: "pg.query")
        #expect(pool.address.host == "flow-db.test" && pool.address.judgedAddress == "127.0.0.1")
        let connected: String? = await withTaskExecutorPreference(ThreadExecutor.shared) {
            do { _ = try await DatabasePool.connect(to: pool.address); return "connected" } catch { return nil }
        }
        // The listener closes what it accepts: no connection is made, but one was reached.
        #expect(connected == nil)
        #expect(judged.connections.withLockedValue { $0 } == 1)
        #expect(rebound?.connections.withLockedValue { $0 } ?? 0 == 0)
        #expect(rebinding.lookUps == ["flow-db.test"])
    }

    @Test func noMessageShowsThePassword() {
        let broken = [
            "mysql://ada:s3cret@h/db", "postgres://ada:s3cret@[::1/db", "postgres://ada:s3cret@[::1]x/db",
            "postgres://ada:s3cret@h:99999/db", "postgres://ada:s3cret%zz@h/db", "postgres://ada:s3cret@h%zz/db",
        ]
        for url in broken {
            var message = ""
            do { _ = try DatabaseAddress.parse(url) } catch { message = FlowError.wrap(error).message }
            #expect(!message.isEmpty, "\(url) parsed")
            #expect(!message.contains("s3cret"), "\(message)")
            var fromEnvironment = ""
            do { _ = try DatabaseAddress.fromEnvironment(["DATABASE_URL": url]) } catch { fromEnvironment = FlowError.wrap(error).message }
            #expect(fromEnvironment.hasPrefix("DATABASE_URL: ") && !fromEnvironment.contains("s3cret"), "\(fromEnvironment)")
        }
        var message = ""
        do { _ = try DatabaseAddress.parse("postgres://ada:s3cret@h:99999/db") } catch { message = FlowError.wrap(error).message }
        #expect(message == "the port in \"postgres://ada:***@h:99999/db\" is not a number from 1 to 65535")
    }

    /// `sslrootcert=` is a file the run opens on the script's behalf: read
    /// through its permissions, never handed to the TLS library by name.
    @Test func theRootCertificateIsReadThroughThePermissions() throws {
        let path = temporaryPath("root.pem")
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var permissions = Permissions.everything(command: "flow run")
        permissions.deny(.read, path)
        let address = try DatabaseAddress.parse("postgres://u@127.0.0.1:9/d?sslmode=verify-full&sslrootcert=\(path)")
        var message = ""
        do { _ = try DatabaseRun(access: Access(permissions)).pool(for: address, by: "pg.query") } catch { message = FlowError.wrap(error).message }
        #expect(message == "pg.query sslrootcert \"\(path)\": reading it is denied by flow run --deny-read", "\(message)")
        #expect(try DatabaseRun.readCertificate(path, access: .unrestricted, by: "pg.query") == Array("-----BEGIN CERTIFICATE-----\n".utf8))
    }

    /// A quote in a channel's name ended LISTEN's quoted identifier, and
    /// the message was postgres-nio's `listenFailed`: now it says why, at the call.
    @Test func aChannelWithAQuoteIsRefusedWhereItIsNamed() throws {
        let result = try run(#"pg.listen("or\"ders").sink { print($0) }"#)
        let message = result.err.joined(separator: "\n")
        #expect(message.contains(#"io.flow:1:4: error: pg.listen("or\"ders"): a channel is named without double quotes or NUL"#), "\(message)")
        #expect(!message.contains("listenFailed"))
    }

    @Test func theEnvironmentAsLibpqReadsIt() throws {
        let fromURL = try DatabaseAddress.fromEnvironment(["DATABASE_URL": "postgres://u@h:1/d", "PGHOST": "ignored"])
        #expect(fromURL.host == "h" && fromURL.port == 1 && fromURL.database == "d")
        let fromVariables = try DatabaseAddress.fromEnvironment([
            "PGHOST": "10.0.0.5", "PGPORT": "5433", "PGUSER": "bob", "PGPASSWORD": "pw", "PGDATABASE": "sales", "PGSSLMODE": "disable",
        ])
        #expect(fromVariables.host == "10.0.0.5")
        #expect(fromVariables.port == 5433)
        #expect(fromVariables.user == "bob")
        #expect(fromVariables.password == "pw")
        #expect(fromVariables.database == "sales")
        #expect(fromVariables.tls == .disable)
        let defaults = try DatabaseAddress.fromEnvironment(["PGUSER": "carol"])
        #expect(defaults.host == "localhost" && defaults.port == 5432)
        #expect(defaults.shown == "postgres://carol@localhost:5432/carol")
        #expect(throws: FlowError.self) { try DatabaseAddress.fromEnvironment(["PGHOST": "/var/run/postgresql"]) }
        #expect(throws: FlowError.self) { try DatabaseAddress.fromEnvironment(["PGPORT": "many"]) }
    }

    @Test func valuesBecomeParametersTheServerCanRead() throws {
        #expect(try DatabaseValues.parameter(.int(5)) == "5")
        #expect(try DatabaseValues.parameter(.null) == nil)
        #expect(try DatabaseValues.parameter(.bool(false)) == "false")
        #expect(try DatabaseValues.parameter(.array([.string("a \"b\""), .int(2), .null])) == #"{"a \"b\"","2",NULL}"#)
        #expect(try DatabaseValues.parameter(.string("x"), for: .json) == #""x""#)
        #expect(try DatabaseValues.parameter(.array([.int(1)]), for: .json) == "[1]")
        #expect(throws: FlowError.self) { try DatabaseValues.parameter(.stream(Observable.never())) }
    }
}
