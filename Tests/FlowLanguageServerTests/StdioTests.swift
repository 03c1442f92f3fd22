import FlowLanguageServer
import FlowTestSupport
import Foundation
import Testing

/// `flow lsp` as an editor starts it: framed messages on standard input,
/// framed answers on standard output, nothing on standard error.
@Suite struct StdioTests {
    static func framed(_ json: String) -> String { "Content-Length: \(json.utf8.count)\r\n\r\n" + json }

    @Test func framesAreReadWhateverTheirChunks() throws {
        var framer = MessageFramer()
        let two = Self.framed(#"{"a":1}"#) + Self.framed(#"{"b":"é"}"#)
        let bytes = Array(two.utf8)
        framer.append(bytes[0..<5])
        #expect(try framer.next() == nil)
        framer.append(bytes[5..<30])
        #expect(try framer.next().map { String(decoding: $0, as: UTF8.self) } == #"{"a":1}"#)
        framer.append(bytes[30...])
        #expect(try framer.next().map { String(decoding: $0, as: UTF8.self) } == #"{"b":"é"}"#)
        #expect(try framer.next() == nil)
        var broken = MessageFramer()
        broken.append(Array("Content-Type: x\r\n\r\n{}".utf8))
        #expect(throws: MessageFramer.Malformed.self) { try broken.next() }
    }

    @Test func flowLspAnswersOverStandardInputAndOutput() throws {
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x.flow","languageId":"flow","version":1,"text":"let a = cold(\"-a|\").debunce(1ms)\n"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
            #"{"jsonrpc":"2.0","method":"exit"}"#,
        ].map(Self.framed).joined()
        let result = try FlowProcess.run(["lsp"], stdin: input, timeout: 120)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        #expect(result.out.hasPrefix("Content-Length: "))
        #expect(result.out.contains(#""positionEncoding":"utf-16""#))
        #expect(result.out.contains(#""message":"unknown method 'debunce'""#))
        #expect(result.out.contains(#""message":"did you mean 'debounce'?""#))
        #expect(result.out.hasSuffix(#"{"id":2,"jsonrpc":"2.0","result":null}"#))
    }

    @Test func anExitWithoutShutdownOrTheEndOfInputIsStatusOne() throws {
        let initialize = Self.framed(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
        #expect(try FlowProcess.run(["lsp"], stdin: initialize + Self.framed(#"{"jsonrpc":"2.0","method":"exit"}"#), timeout: 120).status == 1)
        #expect(try FlowProcess.run(["lsp"], stdin: initialize, timeout: 120).status == 1)
        let garbage = try FlowProcess.run(["lsp"], stdin: "hello\r\n\r\n", timeout: 120)
        #expect(garbage.status == 1)
        #expect(garbage.err.contains("flow lsp: a message without a Content-Length"))
    }
}
