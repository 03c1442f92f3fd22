import CReadline
#if canImport(Glibc)
import Glibc
#endif

/// The REPL's history, kept across sessions: `$XDG_STATE_HOME/flow/history`,
/// else `~/.local/state/flow/history` when `~/.local/state` exists, else
/// `~/.flow_history`. Each line is appended as it is entered, so a session
/// that ends abruptly loses nothing.
final class HistoryFile {
    let path: String
    private var lastLine: String?
    static let maximumEntries: Int32 = 1000

    init(path: String) { self.path = path }

    /// The file for this user, its folder created if needed; nil without a home.
    static func locate(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> HistoryFile? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/"), let file = inFolder(state + "/flow") {
            return file
        }
        guard let home = environment("HOME"), !home.isEmpty else { return nil }
        var info = stat()
        if stat(home + "/.local/state", &info) == 0, let file = inFolder(home + "/.local/state/flow") { return file }
        return HistoryFile(path: home + "/.flow_history")
    }

    private static func inFolder(_ folder: String) -> HistoryFile? {
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            // The parent may be missing too (a fresh XDG_STATE_HOME).
            let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.endIndex)])
            guard !parent.isEmpty, mkdir(parent, 0o700) == 0 || errno == EEXIST, mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                return nil
            }
        }
        return HistoryFile(path: folder + "/history")
    }

    /// Reads earlier sessions' lines into readline's history.
    func load() {
        // append_history needs the file to exist.
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        if fd >= 0 { close(fd) }
        read_history(path)
    }

    func add(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace), line != lastLine else { return }
        lastLine = line
        add_history(line)
        append_history(1, path)
    }

    func save() {
        history_truncate_file(path, Self.maximumEntries)
    }
}
