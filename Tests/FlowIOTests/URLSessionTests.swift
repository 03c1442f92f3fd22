import Foundation
import Testing

@testable import FlowIO
import FlowLanguage
import FlowLive
import FlowRuntime

/// `URLSession.shared` as the networking chapters of the Combine and
/// RxSwift books write it, against a loopback server: requests of the
/// `http` module, under its permissions.
@Suite(.serialized) struct URLSessionTests {
    @Test(arguments: [false, true])
    func combinesDataTaskPublisherGivesDataAndTheResponse(live: Bool) throws {
        try withServer { server in
            let result = try run("""
                import Combine
                struct Reply: Decodable { let name: String; let items: [Double] }
                let url = URL(string: "\(server.base)/json")!
                let c = URLSession.shared.dataTaskPublisher(for: url)
                    .tryMap { data, response -> Data in
                        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else { throw URLError(.badServerResponse) }
                        print(http.statusCode, http.mimeType ?? "", http.value(forHTTPHeaderField: "X-TEST") ?? "")
                        return data
                    }
                    .decode(type: Reply.self, decoder: JSONDecoder())
                    .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.name, $0.items) })
                """, live: live)
            #expect(result.out == ["200 application/json yes", "flow [1.0, 2.0, 3.0]", "finished"], "\(result.err)")
            #expect(server.requests.withLockedValue { $0 } == ["/json"])
        }
    }

    /// A request's method, headers and body are sent; any status comes as
    /// a response (Combine's publisher fails only when no response came).
    @Test func aRequestIsSentAsWrittenAndAnyStatusIsAResponse() throws {
        try withServer { server in
            let result = try run("""
                import Combine
                var request = URLRequest(url: URL(string: "\(server.base)/echo")!)
                request.httpMethod = "POST"
                request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
                request.httpBody = "ping".data(using: .utf8)
                let a = URLSession.shared.dataTaskPublisher(for: request)
                    .map { String(data: $0.data, encoding: .utf8)! + " " + ($0.response as! HTTPURLResponse).mimeType! }
                    .sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
                let b = URLSession.shared.dataTaskPublisher(for: URL(string: "\(server.base)/status/404")!)
                    .map { ($0.response as? HTTPURLResponse)?.statusCode ?? 0 }
                    .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
                """, live: true)
            #expect(Set(result.out) == ["ping text/plain", "404", "finished"], "\(result.err)")
        }
    }

    @Test func rxSwiftsDataResponseAndJSON() throws {
        try withServer { server in
            let result = try run("""
                import RxSwift
                let request = URLRequest(url: URL(string: "\(server.base)/json")!)
                URLSession.shared.rx.response(request: request)
                    .subscribe(onNext: { response, data in print(response.statusCode, String(decoding: data, as: UTF8.self)) })
                URLSession.shared.rx.json(url: URL(string: "\(server.base)/json")!)
                    .subscribe(onNext: { json in print((json as! [String: Any])["name"]!) })
                URLSession.shared.rx.data(request: URLRequest(url: URL(string: "\(server.base)/status/503")!))
                    .subscribe(onError: { print("failed:", $0) })
                """, live: true)
            #expect(result.out.contains(#"200 {"name":"flow","items":[1,2,3]}"#), "\(result.out) \(result.err)")
            #expect(result.out.contains("flow"), "\(result.out)")
            #expect(result.out.contains { $0.hasPrefix("failed:") && $0.contains("HTTP request failed with `503`") }, "\(result.out)")
        }
    }

    /// The session is the http module: a denied address is denied, and
    /// said so at the call.
    @Test func aDeniedAddressIsDeniedAtTheCall() throws {
        try withServer { server in
            var denying = Permissions.everything(command: "flow run")
            denying.deny(.net, "127.0.0.1:\(server.port)")
            let result = try run("""
                import Combine
                let c = URLSession.shared.dataTaskPublisher(for: URL(string: "\(server.base)/json")!)
                    .sink(receiveCompletion: { print($0) }, receiveValue: { _ in print("reached") })
                """, live: true, access: Access(denying))
            #expect(!result.out.contains("reached"), "\(result.out)")
            #expect(result.out.first?.contains("is denied by flow run --deny-net") == true, "\(result.out) \(result.err)")
            #expect(server.requests.withLockedValue { $0 }.isEmpty)
        }
    }

    /// URL(string:) is Foundation's: nil where it is, its parts as Swift
    /// names them; a nil URL given to a request is a located error.
    @Test func urlsAreFoundations() throws {
        let result = try run("""
            let url = URL(string: "http://127.0.0.1:8080/posts/7?page=2")!
            print(url, url.host ?? "", url.port ?? 0, url.path, url.query ?? "", url.lastPathComponent, url.scheme ?? "")
            print(URL(string: "") == nil, URL(string: "a b")!, url.appendingPathComponent("comments"))
            print(URL(string: "http://127.0.0.1/x") as Any, url is URL)
            """)
        #expect(result.out == ["http://127.0.0.1:8080/posts/7?page=2 127.0.0.1 8080 /posts/7 page=2 7 http",
                               "true a%20b http://127.0.0.1:8080/posts/7/comments?page=2",
                               "Optional(http://127.0.0.1/x) true"], "\(result.err)")
        let broken = try run("""
            import Combine
            let c = URLSession.shared.dataTaskPublisher(for: URL(string: "")).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            """)
        #expect(broken.err.first?.contains("io.flow:2:27: error: dataTaskPublisher(for:) was given nil for a URL") == true, "\(broken.err)")
    }
}
