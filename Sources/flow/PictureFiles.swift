import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `--png`: the run's SVG turned into a PNG by librsvg's `rsvg-convert`,
/// where the machine has it (a PNG renderer is not worth a dependency of
/// flow's own: slides and course pages are made where librsvg is).
enum PNGWriter {
    /// The renderer on the PATH, if there is one.
    static func renderer() -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/rsvg-convert"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Fails before a run, as a bad --svg path does, when nothing can
    /// draw the PNG.
    static func checkRenderer() throws {
        guard renderer() == nil else { return }
        Output.err("flow: --png needs rsvg-convert, which is not on this machine (Debian: apt install librsvg2-bin); --svg FILE writes the SVG without it")
        throw ExitCode(ExitStatus.usage.rawValue)
    }

    static func write(svg: String, to path: String) throws {
        guard let renderer = renderer() else { try checkRenderer(); return }
        var template = Array("/tmp/flow-XXXXXX.svg".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else { return fail(path, "cannot make a temporary file: \(String(cString: strerror(errno)))") }
        let svgPath = String(cString: template)
        defer { unlink(svgPath) }
        let bytes = Array(svg.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { return fail(path, "cannot write a temporary file") }
        let arguments = [renderer, "--format", "png", "--output", path, svgPath]
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid = pid_t()
        guard posix_spawn(&pid, renderer, nil, nil, &cArguments, environ) == 0 else { return fail(path, "cannot start \(renderer)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { return fail(path, "\(renderer) failed") }
    }

    private static func fail(_ path: String, _ reason: String) {
        Output.err("flow: cannot write \(path): \(reason)")
        exit(ExitStatus.usage.rawValue)
    }
}
