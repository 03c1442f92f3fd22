import FlowTestSupport
import Testing
@testable import flow

/// `flow [run] SCRIPT.flow [ARGUMENTS]` with no word starting with `-` is
/// read without ArgumentParser, whose reflection over the commands' options
/// was more than half of a hello script's start-up (`RunSettings`). What it
/// reads must be what ArgumentParser reads, and every other command line
/// is ArgumentParser's.
@Suite struct ScriptAloneCommandLineTests {
    @Test(arguments: [
        ["a.flow"], ["run", "a.flow"], ["a.flow", "x", "y"], ["run", "a.flow", "help"], ["a.flow", "run"],
        ["run", "run.flow", "check", "test"], ["dir/b.flow", "1", "two words", ""], ["help.flow"], ["check.flow", "a.flow"],
    ])
    func readsWhatArgumentParserReads(words: [String]) throws {
        let settings = try #require(RunSettings(scriptAlone: words))
        let parsed = try Flow.parseAsRoot(PermissionOptions.normalized(words))
        let run = try #require(parsed as? Run)
        #expect(settings == run.settings)
    }

    @Test(arguments: [
        [], ["run"], ["-"], ["run", "-"], ["check", "a.flow"], ["test", "a.flow"], ["doc", "a.flow"], ["help"], ["script"],
        ["run", "script"], ["--virtual", "a.flow"], ["run", "--live", "a.flow"], ["a.flow", "--virtual"], ["a.flow", "-"],
        ["a.flow", "--help"], ["a.flow", "--generate-completion-script", "bash"], ["--allow-read", "a.flow"],
    ])
    func leavesEveryOtherCommandLineToArgumentParser(words: [String]) {
        #expect(RunSettings(scriptAlone: words) == nil)
    }

    /// The same run, read both ways: the script's arguments, the default
    /// permissions (files readable, the environment not, in the words of
    /// `flow run`), the exit status of a run that failed.
    @Test func aScriptAloneRunsAsWithItsDefaultsWritten() throws {
        let data = try scriptFile("some text\n", named: "data.txt")
        let path = try scriptFile("""
            print(args)
            file.read("\(data)").sink { print($0) }
            cold("a-b|").sink { print($0) }
            print(env["HOME"] ?? "none")

            """)
        let alone = try FlowProcess.run(["run", path, "one", "two words"], in: projectDirectory)
        let written = try FlowProcess.run(["run", "--log-level=info", path, "one", "two words"], in: projectDirectory)
        #expect(alone.out.hasPrefix("[\"one\", \"two words\"]\nsome text\n"), "\(alone.out)")
        #expect(alone.err.contains("reading the environment is not allowed (flow run --allow-env=HOME grants it)"), "\(alone.err)")
        #expect(alone.status == 1)
        #expect(alone.out == written.out)
        #expect(alone.err == written.err)
        #expect(alone.status == written.status)
    }
}
