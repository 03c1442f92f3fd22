import FlowLive
import FlowRuntime
import Foundation
import Testing

/// What a run may reach, and the messages of what it may not: paths are
/// judged as they reach the file system (symlinks and `..` resolved).
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
        #expect(denial { try access.checkRead(tree.root + "/class/inside.txt", by: "file.read") } == nil)
        #expect(denial { try access.checkRead(tree.root + "/class/sub/../inside.txt", by: "file.read") } == nil)
        let escaped = try #require(denial { try access.checkRead(tree.root + "/class/escape.txt", by: "file.read") })
        #expect(escaped == "file.read \"\(tree.root)/class/escape.txt\" (\(tree.root)/outside.txt): reading outside the graded folder "
                + "is not allowed (flow grade --allow-read=\(tree.root) grants it)")
        #expect(denial { try access.checkRead(tree.root + "/class/up/outside.txt", by: "file.lines") } != nil)
        // A folder whose name begins like the granted one is another folder.
        #expect(denial { try access.checkRead(tree.root + "/classic.txt", by: "file.read") } != nil)
        let passwd = try #require(denial { try access.checkRead("/etc/passwd", by: "file.read") })
        #expect(passwd == "file.read \"/etc/passwd\": reading outside the graded folder is not allowed (flow grade --allow-read=/etc grants it)")
        let write = try #require(denial { try access.checkWrite(tree.root + "/class/out.txt", by: "file.write") })
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
        #expect(denial { try access.checkRead(tree.root + "/outside.txt", by: "file.read") } == nil)
        #expect(denial { try access.checkRead(tree.root + "/class/inside.txt", by: "file.read") }?.hasSuffix("reading it is denied by flow run --deny-read") == true)

        var graded = Permissions.graded(folders: [tree.root + "/class"])
        graded.allow(.read, tree.root + "/outside.txt," + "/etc")
        let widened = Access(graded)
        #expect(denial { try widened.checkRead(tree.root + "/class/escape.txt", by: "file.read") } == nil)
        #expect(denial { try widened.checkRead("/etc/hostname", by: "file.read") } == nil)
        // Named grants are named in the message, not "the graded folder".
        #expect(denial { try widened.checkRead("/usr/bin/env", by: "file.read") }?.contains("reading outside \(tree.root)/class, ") == true)

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
        #expect(denial { try Access(permissions).checkNet(url: "https://api.example.test/", by: "http.get") }?.contains("denied") == true)
    }

    @Test func theServedFolderIsReadAndWrittenWithoutNetwork() throws {
        let tree = try Tree()
        let access = Access(.served(folder: tree.root + "/class"))
        #expect(denial { try access.checkWrite(tree.root + "/class/new.txt", by: "file.write") } == nil)
        #expect(denial { try access.checkWrite(tree.root + "/class/up/new.txt", by: "file.write") }?
            .contains("writing outside the served folder is not allowed (flow serve --allow-write=\(tree.root) grants it)") == true)
        #expect(denial { try access.checkNet(url: "http://127.0.0.1/", by: "http.get") } != nil)
    }
}
