extension OperatorSpec {
    static let setFailureType = method("setFailureType", aliases: ["assertNoFailure"], .errors,
        "the stream itself: Combine's change of a publisher's error type, which dynamic typing does not need",
        [labelled("to", .value, optional: true)],
        example: #"""
            let source = cold("-a-b|")
            marbles(source.setFailureType(to: Error.self))
            """#,
        differences: "Combine's `setFailureType(to:)` and `assertNoFailure()` only change types (the second traps on an error, which flow passes on as a stream error instead, as nothing a script does traps). RxSwift and RxJS have no failure type.") { source, _ in
        source
    }
}
