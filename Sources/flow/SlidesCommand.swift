import ArgumentParser
import FlowLanguage
import FlowLive
import FlowMarbles
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

struct Slides: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slides",
        abstract: "Make a 16:9 slide deck of a script's diagrams: one titled slide per marbles(...) call, as SVG and PNG, and an offline index.html.",
        discussion: """
            Each marbles(...) call of the script, in the order it runs, is a slide. Its title is \
            the `// # Title` comment above the call (or the call's title: argument); the comment \
            lines under that title are the slide's speaker notes (N shows them in index.html). \
            A diagram is scaled to fit its slide, never below a legible size: one that cannot \
            fit is split over several slides. The script runs in virtual time.

            Writes DIR/slide-01.svg, slide-01.png, ... (PNG needs rsvg-convert, from librsvg) \
            and DIR/index.html, which steps through the slides with the arrow keys and needs \
            no network.
            """)

    @Argument(help: "The lesson: a script whose marbles(...) calls are the slides.")
    var script: String

    @Option(name: .long, help: ArgumentHelp("The folder to write the deck in (made if it does not exist).", valueName: "DIR"))
    var out: String

    @Option(name: .long, help: ArgumentHelp("The slides' size in pixels.", valueName: "WxH"))
    var size: String = "1920x1080"

    @Flag(name: .long, help: "Write the SVG slides and index.html only, without PNG (which needs rsvg-convert).")
    var noPNG = false

    @OptionGroup(title: "Permissions (default: everything the user can reach)")
    var permissions: PermissionOptions

    @OptionGroup var memory: MemoryOption

    @OptionGroup var dialect: DialectOption

    static func parseSize(_ text: String) -> SlideDeck.Size? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (320...10_000).contains(width), (180...10_000).contains(height) else { return nil }
        return SlideDeck.Size(width: width, height: height)
    }

    func validate() throws {
        if Self.parseSize(size) == nil {
            throw ValidationError("--size takes a width and a height in pixels, each from 320x180 to 10000x10000, such as 1920x1080 or 1280x720; not '\(size)'")
        }
        if out.isEmpty { throw ValidationError("--out takes the folder to write the deck in") }
    }

    func run() throws {
        memory.apply()
        let size = Self.parseSize(size)!
        if !noPNG { try PNGWriter.checkRenderer() }
        try DeckFolder.prepare(out)
        let file = try Loader.load(script)
        let access = Access(permissions.applied(to: .everything(command: "flow slides")))
        let program = try Loader.compile(file, access: access, dialect: dialect.dialect)
        program.drawsLanes = false
        let outcome = program.run(on: .virtual)
        for failure in outcome.failures {
            Output.err(Report.expectationFailure(failure, file: file, color: Output.colorOnStandardError))
        }
        // Each test block's marbles(...) calls are slides too, in their place.
        var tests: [LessonOutline.TestDiagrams] = []
        var testsPassed = true
        for (index, name) in program.testNames.enumerated() {
            let result = program.runTest(index)
            for failure in result.failures {
                Output.err(Report.expectationFailure(failure, file: file, color: Output.colorOnStandardError))
            }
            for error in result.errors { Output.err(Report.streamError(error, file: file, color: Output.colorOnStandardError)) }
            testsPassed = testsPassed && result.passed
            tests.append(.init(name: name, diagrams: result.laneDiagrams.filter { $0.location != nil }))
        }
        let lessons = LessonOutline.lessons(of: outcome.laneDiagrams, tests: tests, source: file.text)
        guard !lessons.isEmpty else {
            Output.err("flow slides: \(file.path) draws no diagram: each marbles(...) call of the script is a slide, as in marbles(numbers, numbers.map { $0 * 2 })")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        let slides = SlideDeck.slides(lessons, size: size)
        var names: [String] = []
        for (index, slide) in slides.enumerated() {
            let name = "slide-" + (index + 1 < 10 ? "0" : "") + String(index + 1)
            let path = out + "/" + name + ".svg"
            try Loader.write(slide.svg, to: path)
            if !noPNG { try PNGWriter.write(svg: slide.svg, to: out + "/" + name + ".png") }
            names.append(name)
        }
        try Loader.write(DeckPage.html(slides, names: names, title: file.path, size: size), to: out + "/index.html")
        let split = slides.count - lessons.count
        Output.out("flow slides: \(slides.count) slide\(slides.count == 1 ? "" : "s") of \(lessons.count) diagram\(lessons.count == 1 ? "" : "s")"
                   + (split > 0 ? " (\(split) more for diagrams too large for one slide)" : "")
                   + " in \(out): index.html, \(names.first!).svg\(noPNG ? "" : " and .png") …")
        if !outcome.passed || !testsPassed { throw ExitCode(ExitStatus.failed.rawValue) }
    }
}

/// The folder a deck is written in: made if missing, refused if it is a file.
enum DeckFolder {
    static func prepare(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                Output.err("flow slides: cannot write the deck in \(path): it is not a folder")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            return
        }
        if mkdir(path, 0o755) != 0 {
            Output.err("flow slides: cannot make the folder \(path): \(String(cString: strerror(errno)))")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}
