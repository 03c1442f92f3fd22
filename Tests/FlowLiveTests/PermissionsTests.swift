import FlowLive
import FlowRuntime
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a run may reach, and the messages of what it may not: paths are
/// judged on what is really opened (symlinks and `..` resolved, by a walk
/// that holds each folder open), also while the file system changes.
@Suite struct PermissionsTests {
    /// A folder `class` with a file, a symlink out of it, and a file beside it.
    final class Tree {
        let root: String
        init() throws {
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("flow-perm-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: base + "/class/sub", withIntermediateDirectories: true)
            try "in".write(toFile: base + "/class/inside.txt", atomically: true, encoding: .utf8)
            try "out".write(toFile: base + "/outside.txt", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: base + "/class/escape.txt", withDestinationPath: "../outside.txt")
            try FileManager.default.createSymbolicLink(atPath: base + "/class/up", withDestinationPath: "..")
            root = URL(fileURLWithPath: base).resolvingSymlinksInPath().path
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    func denial(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return FlowError.wrap(error).message }
        return nil
    }

    @Test func pathsAreResolvedBeforeTheyAreJudged() throws {
        let tree = try Tree()
        #expect(Permissions.resolve(tree.root + "/class/sub/../inside.txt") == tree.root + "/class/inside.txt")
        #expect(Permissions.resolve(tree.root + "/class/escape.txt") == tree.root + "/outside.txt")
        #expect(Permissions.resolve(tree.root + "/class/up/outside.txt") == tree.root + "/outside.txt")
        // A file not written yet: its folder resolved, the rest folded.
        #expect(Permissions.resolve(tree.root + "/class/up/new/../fresh.txt") == tree.root + "/fresh.txt")
        #expect(Permissions.resolve("/../../etc/./hostname") == "/etc/hostname")
    }

    @Test func theGradedFolderIsReadableAndNothingElse() throws {
        let tree = try Tree()
        let access = Access(.graded(folders: [tree.root + "/class"]))
        #expect(denial { try access.read(tree.root + "/class/inside.txt", by: "file.read") } == nil)
        #expect(denial { try access.read(tree.root + "/class/sub/../inside.txt", by: "file.read") } == nil)
        let escaped = try #require(denial { try access.read(tree.root + "/class/escape.txt", by: "file.read") })
        #expect(escaped == "file.read \"\(tree.root)/class/escape.txt\" (\(tree.root)/outside.txt): reading outside the graded folder "
                + "is not allowed (flow grade --allow-read=\(tree.root) grants it)")
        #expect(denial { try access.read(tree.root + "/class/up/outside.txt", by: "file.lines") } != nil)
        // A folder whose name begins like the granted one is another folder.
        #expect(denial { try access.read(tree.root + "/classic.txt", by: "file.read") } != nil)
        let passwd = try #require(denial { try access.read("/etc/passwd", by: "file.read") })
        #expect(passwd == "file.read \"/etc/passwd\": reading outside the graded folder is not allowed (flow grade --allow-read=/etc grants it)")
        let write = try #require(denial { try access.replace(tree.root + "/class/out.txt", by: "file.write") })
        #expect(write.hasSuffix("writing files is not allowed (flow grade --allow-write=\(tree.root)/class grants it)"))
        #expect(denial { try access.checkNet(url: "http://127.0.0.1:8080/x", by: "http.get") }
                == "http.get \"http://127.0.0.1:8080/x\": network access is not allowed (flow grade --allow-net=127.0.0.1 grants it)")
        #expect(!access.readsStandardInput)
    }

    @Test func grantsAndDenialsCombineAsDenosDo() throws {
        let tree = try Tree()
        var permissions = Permissions.everything(command: "flow run")
        permissions.deny(.read, tree.root + "/class")
        let access = Access(permissions)
        #expect(denial { try access.read(tree.root + "/outside.txt", by: "file.read") } == nil)
        #expect(denial { try access.read(tree.root + "/class/inside.txt", by: "file.read") }?.hasSuffix("reading it is denied by flow run --deny-read") == true)

        var graded = Permissions.graded(folders: [tree.root + "/class"])
        graded.allow(.read, tree.root + "/outside.txt," + "/etc")
        let widened = Access(graded)
        #expect(denial { try widened.read(tree.root + "/class/escape.txt", by: "file.read") } == nil)
        #expect(denial { try widened.read("/etc/hostname", by: "file.read") } == nil)
        // Named grants are named in the message, not "the graded folder".
        #expect(denial { try widened.read("/usr/bin/env", by: "file.read") }?.contains("reading outside \(tree.root)/class, ") == true)

        graded.allowAll()
        #expect(Access(graded).permissions.read == .all && Access(graded).permissions.net == .all)
    }

    @Test func hostsAreGrantedByNameAndPort() {
        var permissions = Permissions.graded(folders: ["/tmp"])
        permissions.allow(.net, "api.example.test,127.0.0.1:8080")
        let access = Access(permissions)
        #expect(denial { try access.checkNet(url: "https://API.example.test/v1", by: "http.get") } == nil)
        #expect(denial { try access.checkNet(url: "http://api.example.test:9000/", by: "http.get") } == nil)
        #expect(denial { try access.checkNet(url: "http://127.0.0.1:8080/", by: "http.get") } == nil)
        #expect(denial { try access.checkNet(url: "http://127.0.0.1:8081/", by: "http.get") }?.contains("--allow-net=127.0.0.1 grants it") == true)
        // The user part of a URL is not its host.
        #expect(denial { try access.checkNet(url: "http://api.example.test@evil.test/", by: "http.get") } != nil)
        #expect(denial { try access.checkNet(url: "http://[::1]:8080/", by: "http.get") } != nil)
        permissions.deny(.net, "api.example.test")
        // A denied name is looked up (for the addresses it denies too): a stand-in answers, no DNS is asked.
        let denying = Access(permissions, resolve: { _ in [] })
        #expect(denial { try denying.checkNet(url: "https://api.example.test/", by: "http.get") }?.contains("denied") == true)
    }

    @Test func theServedFolderIsReadAndWrittenWithoutNetwork() throws {
        let tree = try Tree()
        let access = Access(.served(folder: tree.root + "/class"))
        #expect(denial { try access.replace(tree.root + "/class/new.txt", by: "file.write") } == nil)
        #expect(denial { try access.replace(tree.root + "/class/up/new.txt", by: "file.write") }?
            .contains("writing outside the served folder is not allowed (flow serve --allow-write=\(tree.root) grants it)") == true)
        #expect(denial { try access.checkNet(url: "http://127.0.0.1/", by: "http.get") } != nil)
    }

    /// A dangling symlink inside a granted folder leads out of it: writing
    /// through it is judged where the file would be made, and nothing is made.
    @Test func aDanglingSymlinkMakesNothingOutside() throws {
        let tree = try Tree()
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/class/made.txt", withDestinationPath: "../made-outside.txt")
        let served = Access(.served(folder: tree.root + "/class"))
        for operation in ["file.write", "file.append"] {
            let message = denial {
                if operation == "file.write" { try served.replace(tree.root + "/class/made.txt", by: operation) }
                else { close(try served.openForAppending(tree.root + "/class/made.txt", by: operation)) }
            }
            #expect(message == "\(operation) \"\(tree.root)/class/made.txt\" (\(tree.root)/made-outside.txt): writing outside the served folder "
                    + "is not allowed (flow serve --allow-write=\(tree.root) grants it)")
        }
        #expect(!FileManager.default.fileExists(atPath: tree.root + "/made-outside.txt"))

        // Everything granted but a denied folder, which a link leads into.
        var run = Permissions.everything(command: "flow run")
        run.deny(.write, tree.root + "/class/sub")
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/into-sub.txt", withDestinationPath: "class/sub/new.txt")
        #expect(denial { close(try Access(run).openForAppending(tree.root + "/into-sub.txt", by: "file.append")) }?
            .hasSuffix("writing it is denied by flow run --deny-write") == true)
        #expect(!FileManager.default.fileExists(atPath: tree.root + "/class/sub/new.txt"))
        // A link within what is granted is followed, and the file made.
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/class/inner.txt", withDestinationPath: "sub/inner-made.txt")
        #expect(denial { close(try served.openForAppending(tree.root + "/class/inner.txt", by: "file.append")) } == nil)
        #expect(FileManager.default.fileExists(atPath: tree.root + "/class/sub/inner-made.txt"))
    }

    /// A symlink flipped between a granted and a denied file while it is
    /// read and appended to: a fixed number of tries, none of which may
    /// reach the denied file (before, about one read in 27 did).
    @Test func aSymlinkFlippedWhileOpenedNeverReachesTheDeniedFile() throws {
        let tree = try Tree()
        try "secret\n".write(toFile: tree.root + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/class/flip", withDestinationPath: "inside.txt")
        let flipper = Flipper(link: tree.root + "/class/flip", targets: ["inside.txt", "../secret.txt"])
        flipper.start()
        defer { flipper.stop() }
        let access = Access(.served(folder: tree.root + "/class"))
        var allowed = 0, denied = 0
        for _ in 0..<20_000 {
            do {
                let fd = try access.openForReading(tree.root + "/class/flip", by: "file.read")
                var buffer = [UInt8](repeating: 0, count: 16)
                let n = read(fd, &buffer, buffer.count)
                close(fd)
                let text = String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self)
                #expect(text == "in", "read \(text.debugDescription) through the flipped link")
                if text != "in" { break }
                allowed += 1
            } catch {
                denied += 1
            }
        }
        for _ in 0..<5_000 {
            if let fd = try? access.openForAppending(tree.root + "/class/flip", by: "file.append") { close(fd) }
            if let place = try? access.placeForReplacing(tree.root + "/class/flip", by: "file.write") {
                #expect(place.path == tree.root + "/class/inside.txt")
                close(place.folder)
            }
        }
        flipper.stop()
        #expect(allowed + denied == 20_000 && allowed > 0)
        #expect(try String(contentsOfFile: tree.root + "/secret.txt", encoding: .utf8) == "secret\n")
        #expect(flipper.flips > 0)
    }

    /// Watching judges what the path names at each look: a link to a
    /// denied file is a denial, not the file's size.
    @Test func aWatchedLinkToADeniedFileIsADenial() throws {
        let tree = try Tree()
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/class/watched", withDestinationPath: "inside.txt")
        let access = Access(.served(folder: tree.root + "/class"))
        #expect(try access.status(of: tree.root + "/class/watched", by: "file.watch")?.st_size == 2)
        #expect(try access.status(of: tree.root + "/class/absent", by: "file.watch") == nil)
        try FileManager.default.removeItem(atPath: tree.root + "/class/watched")
        try FileManager.default.createSymbolicLink(atPath: tree.root + "/class/watched", withDestinationPath: "../outside.txt")
        #expect(denial { _ = try access.status(of: tree.root + "/class/watched", by: "file.watch") }?
            .contains("reading outside the served folder is not allowed") == true)
    }

    /// Whether something exists outside what is granted is not told by a
    /// "no such file" where a denial belongs.
    @Test func aMissingPathOutsideIsADenial() throws {
        let tree = try Tree()
        let access = Access(.served(folder: tree.root + "/class"))
        #expect(denial { try access.read(tree.root + "/nowhere/file.txt", by: "file.read") }?.contains("reading outside the served folder") == true)
        #expect(denial { try access.read(tree.root + "/class/nowhere/file.txt", by: "file.read") }?.hasPrefix("cannot read") == true)
    }
}

/// Renames a fresh symlink over `link`, pointing at each target in turn,
/// on a thread of its own until stopped.
final class Flipper: @unchecked Sendable {
    let link: String
    let targets: [String]
    private let lock = NSLock()
    private var stopped = false
    private var count = 0
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    init(link: String, targets: [String]) {
        self.link = link
        self.targets = targets
    }

    var flips: Int { lock.withLock { count } }

    func start() {
        let thread = Thread { [self] in
            let spare = link + ".next"
            var i = 0
            while !lock.withLock({ stopped }) {
                unlink(spare)
                symlink(targets[i % targets.count], spare)
                rename(spare, link)
                i += 1
                lock.withLock { count = i }
            }
            done.signal()
        }
        self.thread = thread
        thread.start()
    }

    func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped && thread != nil
        }
        if wasRunning { done.wait() }
    }
}

extension Access {
    /// Opens and closes `path` for reading, for its judgement.
    func read(_ path: String, by operation: String) throws {
        close(try openForReading(path, by: operation))
    }

    /// Finds where `path` would be replaced, for its judgement.
    func replace(_ path: String, by operation: String) throws {
        close(try placeForReplacing(path, by: operation).folder)
    }
}
