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
}
