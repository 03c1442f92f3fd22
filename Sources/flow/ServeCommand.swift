import ArgumentParser
import FlowLive
import FlowRuntime
import FlowServe
import FlowLanguage
import Foundation

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "A local web page: edit a script and its diagrams redraw; drag input marbles along the time axis; run scripts with timers, files or requests live.")

    @Argument(help: "A script, or a folder of scripts (the current folder by default).")
    var path: String = "."

    @Option(name: .long, help: ArgumentHelp("Serve one exercise file to a class: students answer its toBe(\"???\") lanes by placing marbles, without the editor, and save their answers.", valueName: "FILE"))
    var exercise: String?

    @Option(name: .long, help: ArgumentHelp("With --exercise: where each student's answers are saved, one .flow file each, for flow grade (default: FILE's name + -answers, beside it).", valueName: "FOLDER"))
    var answers: String?

    @Option(name: .long, help: ArgumentHelp("With --exercise: the class as a CSV with the columns file, name (and id, email): each student gets a personal link, and answers in their own file; without it, each student claims a name on the page.", valueName: "FILE"))
    var roster: String?

    @Option(name: .long, help: "The port to listen on (0: any free port).")
    var port: Int = 8080

    @Option(name: .long, help: "The address to listen on: loopback unless told otherwise.")
    var host: String = "127.0.0.1"

    @OptionGroup(title: "Permissions of the scripts run from the page (default: read and write the served folder, no network)")
    var permissions: PermissionOptions

    @OptionGroup var memory: MemoryOption

    /// A path as a POSIX shell reads it back, quoted only when it must be.
    static func shellQuoted(_ path: String) -> String {
        // A folder named like an option (`-x`) is given as ./-x, which no command reads as one.
        let path = path.hasPrefix("-") ? "./" + path : path
        let plain = path.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-+,:@%=".unicodeScalars.contains($0) }
        return plain && !path.isEmpty ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The roster as the server takes it: each student's answer file,
    /// named as the roster names it (`flow grade --roster` then matches it),
    /// which must be a plain file name.
    static func classMembers(_ path: String) throws -> [ClassMember] {
        let roster = try Roster(path: path, text: try SourceFile.load(path: path).text)
        guard !roster.students.isEmpty else { throw Roster.Problem(description: "\(path): the roster names no student") }
        return try roster.students.map { student in
            let file = Roster.key(student.file)
            guard !file.isEmpty, !file.hasPrefix("."), file.count <= 60,
                  file.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }) else {
                throw Roster.Problem(description: "\(path): '\(student.file)' cannot name an answer file: use letters, digits, '-', '_' and '.'")
            }
            return ClassMember(file: file, name: student.name, id: student.id, email: student.email)
        }
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes a number from 0 to 65535, not \(port)") }
        guard !host.isEmpty, !host.contains("/") else { throw ValidationError("--host takes an address such as 127.0.0.1, not '\(host)'") }
        if exercise != nil, path != "." { throw ValidationError("--exercise serves its one file: give no other script or folder") }
        if answers != nil, exercise == nil { throw ValidationError("--answers goes with --exercise FILE") }
        if roster != nil, exercise == nil { throw ValidationError("--roster goes with --exercise FILE") }
    }

    func run() throws {
        memory.apply()
        do {
            // Resolved before the server changes into the served folder.
            let flags = permissions.absolute()
            var options = PlaygroundServer.Options(path: exercise ?? path, host: host, port: port) { flags.applied(to: .served(folder: $0)) }
            options.exercise = exercise != nil
            options.answers = answers
            options.roster = try roster.map(Self.classMembers)
            let serving = options
            try PlaygroundServer.run(serving) { started in
                Output.out("flow serve: \(started.address) (Ctrl-C stops it)")
                if serving.exercise {
                    let folder = Self.shellQuoted(serving.answersFolder)
                    Output.out("flow serve: answers are saved in \(folder); grade them with: flow grade \(folder)")
                    if let teacher = started.teacher { Output.out("flow serve: the class as it answers (yours alone): \(teacher)") }
                    for note in started.notes { Output.err("flow serve: note: " + note) }
                    if serving.roster == nil {
                        Output.out("flow serve: each student gives a name on the page, once; the name is then theirs")
                    } else {
                        Output.out("flow serve: each student's own link (give each only theirs):")
                        for (member, link) in started.students {
                            let who = [member.name, member.id, member.email].filter { !$0.isEmpty }
                            Output.out("  \(member.file): \(UnforgeableText.line(who.joined(separator: ", "))) \(link)")
                        }
                    }
                }
                if !serving.isLoopback {
                    Output.err("flow serve: listening beyond loopback, so scripts run from the page cannot use the file and http modules")
                }
            }
        } catch let refused as CustomStringConvertible where !(refused is ExitCode) {
            Output.err("flow serve: \(refused)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}
