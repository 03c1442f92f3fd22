// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "flow",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "flow", targets: ["flow"]),
        .library(name: "FlowRuntime", targets: ["FlowRuntime"]),
        .library(name: "FlowMarbles", targets: ["FlowMarbles"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Values, events, schedulers and operators. Knows nothing of the
        // language, and links nothing of the operating system's clocks,
        // signals or I/O: virtual time runs here; the live loop is a protocol.
        .target(
            name: "FlowRuntime",
            dependencies: [
                "CThreadStack",
                .product(name: "Collections", package: "swift-collections"),
            ]
        ),
        // The live world: the wall clock on a swift-nio event loop, signals,
        // and the permissions every file, network and standard-input access
        // of a script is checked against.
        .target(
            name: "FlowLive",
            dependencies: [
                "FlowRuntime", "CSignalPipe",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The calling thread's stack bounds, for the runtime's depth guard.
        .target(name: "CThreadStack"),
        // Signals forwarded to a pipe, for Ctrl-C and terminal resizes.
        .target(name: "CSignalPipe"),
        // Marble notation: parse, test streams, record, render, compare.
        .target(name: "FlowMarbles", dependencies: ["FlowRuntime"]),
        // The language: lexer, parser, diagnostics, resolver, compiler to the graph.
        .target(
            name: "FlowLanguage",
            dependencies: [
                "FlowRuntime", "FlowMarbles",
                .product(name: "Collections", package: "swift-collections"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // flow fmt: the one layout of a script, from the language's tokens;
        // it knows the syntax only.
        .target(name: "FlowFormat", dependencies: ["FlowLanguage"]),
        // What editors are given: the TextMate grammar, generated from the
        // language's own lists.
        .target(name: "FlowEditors", dependencies: ["FlowLanguage", "FlowRuntime", "FlowIO"]),
        // flow lsp: a language server over JSON-RPC, its core driven message by message.
        .target(name: "FlowLanguageServer", dependencies: ["FlowLanguage", "FlowMarbles", "FlowRuntime", "FlowFormat", "FlowIO"]),
        // I/O builtins on the live loop: files, standard input, JSON, HTTP
        // and PostgreSQL.
        .target(
            name: "FlowIO",
            dependencies: [
                "FlowRuntime", "FlowLive", "FlowLanguage",
                .product(name: "Collections", package: "swift-collections"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // GNU readline (libreadline-dev), for the REPL's line editing.
        .systemLibrary(name: "CReadline"),
        // The interactive REPL: sessions, commands, completion, the terminal.
        .target(
            name: "FlowREPL",
            dependencies: [
                "FlowLanguage", "FlowMarbles", "FlowRuntime", "FlowLive", "FlowIO", "CReadline",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // flow serve: the playground in a browser (Hummingbird, with its
        // WebSocket support); the page is static files shipped as resources.
        .target(
            name: "FlowServe",
            dependencies: [
                "FlowLanguage", "FlowMarbles", "FlowRuntime", "FlowLive", "FlowIO",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("Page")]
        ),
        // The command line: flow run / test / check / doc / repl / serve.
        .executableTarget(
            name: "flow",
            dependencies: [
                "FlowLanguage", "FlowMarbles", "FlowLive", "FlowIO", "FlowREPL", "FlowServe", "FlowFormat", "FlowLanguageServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "runtime-tour",
            dependencies: ["FlowRuntime", "FlowMarbles"],
            path: "examples/runtime-tour"
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["FlowRuntime", "FlowMarbles", "FlowLanguage"],
            path: "Benchmarks",
            exclude: ["scripts", "fuzz", "soak"]
        ),
        // Long runs outside the test suite (docs/reliability.md): generated
        // scripts through the built `flow`, and a live run's memory over time.
        .executableTarget(name: "flow-fuzz", dependencies: ["FlowTestSupport"], path: "Benchmarks/fuzz"),
        .executableTarget(name: "flow-soak", dependencies: ["FlowTestSupport"], path: "Benchmarks/soak"),
        // Starts the built `flow` binary for the command-line tests of both test targets.
        .target(name: "FlowTestSupport", path: "Tests/FlowTestSupport"),
        .testTarget(
            name: "FlowLanguageTests",
            dependencies: ["FlowLanguage", "FlowRuntime", "FlowMarbles", "FlowLive", "FlowIO", "flow", "FlowTestSupport"],
            exclude: ["Diagnostics", "Scripts", "Dialects", "RuntimeErrors", "CrashCorpus", "SwiftOracle"]
        ),
        .testTarget(
            name: "FlowIOTests",
            dependencies: [
                "FlowIO", "FlowLanguage", "FlowRuntime", "FlowLive", "flow", "FlowTestSupport",
                // The tests' own HTTP and https servers, on loopback.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "FlowServeTests",
            dependencies: [
                "FlowServe", "flow", "FlowTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "FlowREPLTests",
            // The terminal tests start the built `flow` in tmux.
            dependencies: ["FlowREPL", "FlowLanguage", "FlowRuntime", "FlowMarbles", "flow", "FlowTestSupport"]
        ),
        .testTarget(
            name: "FlowRuntimeTests",
            // The examples are executables the tests run as subprocesses.
            dependencies: ["FlowRuntime", "FlowMarbles", "runtime-tour"]
        ),
        .testTarget(name: "FlowMarblesTests", dependencies: ["FlowMarbles", "FlowRuntime", "FlowTestSupport"]),
        // The formatter on every script of the repository, and flow fmt as a user runs it.
        .testTarget(name: "FlowFormatTests", dependencies: ["FlowFormat", "FlowLanguage", "FlowIO", "flow", "FlowTestSupport"]),
        // The grammar against the language's lists, and tokenised by a real TextMate engine.
        .testTarget(name: "FlowEditorsTests", dependencies: ["FlowEditors", "FlowLanguage", "FlowRuntime", "FlowTestSupport"]),
        // The server's transcripts in process, and flow lsp over standard input and output.
        .testTarget(name: "FlowLanguageServerTests", dependencies: ["FlowLanguageServer", "flow", "FlowTestSupport"],
                    exclude: ["Transcripts"]),
        .testTarget(name: "FlowLiveTests", dependencies: ["FlowLive", "FlowRuntime"]),
        // The command line as a user runs it: the built `flow` in a subprocess.
        .testTarget(name: "FlowCLITests", dependencies: ["flow", "FlowRuntime", "FlowTestSupport"], exclude: ["Class"]),
    ],
    swiftLanguageModes: [.v6]
)
