import FlowTestSupport
import Foundation
import Testing

/// Debian's Neovim, headless, attaches `flow lsp` to a script with an
/// error and reads its diagnostics and a hover (editors/tests/neovim_lsp.lua).
@Suite struct NeovimTests {
    static let neovim = ["/usr/bin/nvim", "/usr/local/bin/nvim"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: neovim != nil, "Neovim is not installed here (.ci/run installs Debian's neovim)"))
    func neovimReadsTheDiagnosticsAndAHover() throws {
        let script = temporaryPath("broken.flow")
        try "let clicks = cold(\"-a--b|\")\nlet quiet = clicks.debunce(2ms)\nlet doubled = clicks.map { $0 }\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let lua = projectDirectory.appendingPathComponent("editors/tests/neovim_lsp.lua").path
        let result = try FlowProcess.run(["--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile \(lua)"],
                                         binary: URL(fileURLWithPath: Self.neovim!), timeout: 300,
                                         environment: ["FLOW_BINARY": FlowProcess.defaultBinary.path, "FLOW_SCRIPT": script])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("diagnostic 2:20 unknown method 'debunce'"), "\(result.out)\(result.err)")
        #expect(result.out.contains("hover ```text | map("), "\(result.out)")
        #expect(result.out.contains("source.map"), "the hover's lanes: \(result.out)")
    }

    /// The `init.lua` editors/README.md gives for Neovim before 0.11, as a
    /// user sets it up: `flow` found on the PATH, the file type from the
    /// file's name; opening a broken script shows its diagnostic.
    @Test(.enabled(if: neovim != nil, "Neovim is not installed here (.ci/run installs Debian's neovim)"))
    func theReadmesSetupForNeovimBefore011ShowsTheDiagnostics() throws {
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("editors/README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "Neovim 0.7 to 0.10"), "editors/README.md has no setup for Neovim before 0.11")
        let block = try #require(readme[section.upperBound...].firstMatch(of: /```lua\n([\s\S]*?)```/)?.1)
        let folder = URL(fileURLWithPath: temporaryPath("neovim-setup"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try String(block).write(to: folder.appendingPathComponent("init.lua"), atomically: true, encoding: .utf8)
        try "let clicks = cold(\"-a--b|\")\nlet quiet = clicks.debunce(2ms)\n"
            .write(to: folder.appendingPathComponent("broken.flow"), atomically: true, encoding: .utf8)
        let report = "lua vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50); "
            + "for _, d in ipairs(vim.diagnostic.get(0)) do io.stdout:write(string.format('diagnostic %d:%d %s\\n', d.lnum + 1, d.col + 1, d.message)) end"
        let path = FlowProcess.defaultBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try FlowProcess.run(["--headless", "-u", "init.lua", "-i", "NONE", "broken.flow", "-c", report, "-c", "qa!"],
                                         in: folder, binary: URL(fileURLWithPath: Self.neovim!), timeout: 300, environment: ["PATH": path])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("diagnostic 2:20 unknown method 'debunce'"), "\(result.out)\(result.err)")
    }
}
