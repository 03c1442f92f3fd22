import Foundation

/// How long a test waits for a condition before it fails: generous, since a
/// shared two-core CI machine may be busy building or running other suites.
/// A test never waits for a fixed time, only for a condition.
public let waitingDeadline: Double = 120

/// Polls `condition` every 20 ms until it holds (true) or `seconds` pass (false).
public func waitFor(seconds: Double = waitingDeadline, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return true
}

/// The same, for async code: it suspends between polls instead of sleeping
/// its thread, which a concurrent task (a WebSocket client) may need.
public func waitFor(seconds: Double = waitingDeadline, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// Reads a pipe until `text` has come (or the pipe ends): the condition a
/// test waits for before it acts on a running process.
public func readUntil(_ text: String, from pipe: Pipe) {
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains(text) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { return }
        seen += chunk
    }
}

/// The folder of this test process's files: made when first asked for,
/// removed with everything in it when the process exits, so a run of the
/// tests leaves nothing behind in the temporary folder.
public let scratchFolder: URL = {
    let folder = scratchFolderOfThisProcess()
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchFolderOfThisProcess()) }
    return folder
}()

private func scratchFolderOfThisProcess() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("flow-tests-\(getpid())")
}

/// A fresh path in the test process's scratch folder, ending in `name`.
public func temporaryPath(_ name: String) -> String {
    scratchFolder.appendingPathComponent("\(UUID().uuidString)-\(name)").path
}

/// A script written to a fresh file of the scratch folder; its path.
public func scriptFile(_ text: String, named name: String = "script.flow") throws -> String {
    let path = temporaryPath(name)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The partial file `file.write(path)` fills until its stream ends, if any.
public func partialFile(of path: String) -> String? {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    let prefix = "." + url.lastPathComponent + ".partial-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.first { $0.hasPrefix(prefix) }.map { directory + "/" + $0 }
}

/// The repository's root folder (this file is Tests/FlowTestSupport/TestFiles.swift).
public let projectDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `.flow` files of a folder, sorted.
public func flowFiles(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".flow") }.sorted()
}
