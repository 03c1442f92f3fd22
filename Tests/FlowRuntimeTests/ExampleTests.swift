import Foundation
import Testing

/// Runs the executables built from `examples/` as a user would.
@Suite struct ExampleTests {
    /// The directory holding the products of this build (next to the test bundle).
    static var productsDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.pathExtension != "xctest" && url.path != "/" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent()
    }

    static func run(_ product: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent(product)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func runtimeTourDrawsThePurchaseButton() throws {
        let (status, output) = try Self.run("runtime-tour")
        #expect(status == 0)
        #expect(output.contains("balance  a----b---|"))
        #expect(output.contains("canBuy   f----t---|"))
        #expect(output.contains("expectation met"))
    }
}
