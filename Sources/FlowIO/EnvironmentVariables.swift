import FlowLanguage
import FlowLive
import FlowRuntime
#if canImport(Glibc)
import Glibc
#endif

/// `env`: the process's environment as a read-only dictionary,
/// `env["TOKEN"]` being the variable's value or nil. Each name is checked
/// against the run's `--allow-env` as it is read, so a script granted
/// `--allow-env=TOKEN` cannot read `HOME`, and is told which flag grants it.
final class EnvironmentVariables: Function, KeyedValues, @unchecked Sendable {
    let access: Access

    init(access: Access) {
        self.access = access
        super.init(name: "env", parameterCount: 1)
    }

    func value(forKey key: Value) throws -> Value {
        guard case .string(let name) = key else {
            throw FlowError("env is read by a variable's name, as in env[\"HOME\"], not by \(key.typeName) \(key.literal)")
        }
        try access.checkEnv(name, shown: "env[\(name.debugDescription)]")
        return getenv(name).map { .string(String(cString: $0)) } ?? .null
    }

    var keyedName: String { "env" }
    var howItIsRead: String {
        "it is read a variable at a time, as in env[\"HOME\"], each name checked against --allow-env, and cannot be listed, walked or changed"
    }

    override func call(_ args: [Value]) throws -> Value {
        throw FlowError("env is read with a subscript, as in env[\"HOME\"]")
    }
}

extension IOModules {
    public static func environment(_ access: Access) -> BuiltinModule {
        BuiltinModule(name: "env", summary: "the environment variables granted by --allow-env, read as env[\"NAME\"] (nil when unset)",
                      functions: [], value: { .function(EnvironmentVariables(access: access)) })
    }
}
