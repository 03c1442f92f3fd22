import ArgumentParser
import FlowLanguage
import FlowMarbles
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the test blocks of scripts in virtual time; end with a line 'N passed, N failed'.")

    @Argument(help: "Scripts, or folders searched for *.flow files.")
    var paths: [String]

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give the scripts or folders to test") }
    }

    func run() throws {
        var files: [String] = []
        for path in paths {
            guard let found = ScriptFinder.scripts(at: path) else {
                Output.err("flow: no such file or folder: \(path)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            files += found
        }
        var passed = 0, failed = 0, notCompiled = 0
        // Everything a test reports goes to standard output, each failure's
        // details right after its ✗ line, so the report reads in order
        // wherever it goes; compile errors go to standard error.
        let color = Output.colorOnStandardOutput
        for path in files {
            let file: SourceFile, program: Program
            do {
                file = try Loader.load(path)
                // A test block that does not compile fails alone.
                program = try Loader.compile(file, isolatingTests: true)
            } catch {
                notCompiled += 1
                let names = (try? SourceFile.load(path: path))?.declaredTestNames ?? []
                for name in names.isEmpty ? [path] : names {
                    failed += 1
                    Output.out("✗ \(path): \(name) (the file does not compile)")
                }
                continue
            }
            func report(_ name: String, _ outcome: Program.Outcome) {
                if outcome.passed {
                    passed += 1
                    Output.out("✓ \(file.path): \(name)")
                    return
                }
                failed += 1
                Output.out("✗ \(file.path): \(name)")
                for failure in outcome.failures { Output.out(Report.expectationFailure(failure, file: file, color: color)) }
            }
            // The statements outside any block form one more run, named after the file.
            program.drawsLanes = false
            let topLevel = program.run(virtual: true)
            if topLevel.expectations > 0 || !topLevel.passed { report(file.path, topLevel) }
            for (index, name) in program.testNames.enumerated() {
                let problems = program.problems(ofTest: index)
                guard problems.isEmpty else {
                    failed += 1
                    Output.out("✗ \(file.path): \(name) (the test does not compile)")
                    for problem in problems { Output.out(problem.render(color: color)) }
                    continue
                }
                report(name, program.runTest(index))
            }
            for (name, problems) in program.brokenTests {
                failed += 1
                Output.out("✗ \(file.path): \(name) (the test does not compile)")
                for problem in problems { Output.out(problem.render(color: color)) }
            }
            // A block a syntax error swallowed (an unclosed brace) still counts.
            var compiledNames = program.testNames + program.brokenTests.map(\.name)
            for name in file.declaredTestNames {
                if let i = compiledNames.firstIndex(of: name) {
                    compiledNames.remove(at: i)
                } else {
                    failed += 1
                    Output.out("✗ \(file.path): \(name) (the test does not compile)")
                }
            }
        }
        let broken = notCompiled == 1 ? "1 file does" : "\(notCompiled) files do"
        Output.out("\(passed) passed, \(failed) failed" + (notCompiled > 0 ? "; \(broken) not compile" : ""))
        if notCompiled > 0 { throw ExitCode(ExitStatus.invalidScript.rawValue) }
        if failed > 0 { throw ExitCode(ExitStatus.failed.rawValue) }
    }
}

/// Finds scripts: a file as given, or every *.flow below a folder, sorted.
enum ScriptFinder {
    static func scripts(at path: String) -> [String]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        var found: [String] = []
        collect(path, into: &found)
        return found.sorted()
    }

    private static func collect(_ folder: String, into found: inout [String]) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                collect(path, into: &found)
            } else if name.hasSuffix(".flow") {
                found.append(path)
            }
        }
    }
}
