import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An https server on a loopback address for the tests, with a certificate
/// for `flow-pinned.test`, a name no DNS knows, issued by the tests' own
/// authority (`authority`, which a test trusts through
/// `FlowHTTP.additionalTrustRoots`). Every request is answered with
/// `{"served":"<the address it listens on>"}`; it counts the connections
/// it accepted.
final class TLSTestServer: Sendable {
    static let name = "flow-pinned.test"

    /// Made once with openssl (an EC P-256 authority, and a certificate for
    /// `flow-pinned.test` only it signed, valid from 2000 to 2126).
    static let authority = """
        -----BEGIN CERTIFICATE-----
        MIIBYzCCAQmgAwIBAgIBATAKBggqhkjOPQQDAjAYMRYwFAYDVQQDDA1mbG93IHRl
        c3RzIENBMCAXDTAwMDEwMTAwMDAwMFoYDzIxMjYwMTAxMDAwMDAwWjAYMRYwFAYD
        VQQDDA1mbG93IHRlc3RzIENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAErtEI
        WLwvmkaqWeCuGAj0MJDYXVMvhzI1Fu8oN1iVwdGkff+3aKUMP4+UjW9q16Cn4foW
        Fo4C3eZOpvFrJ6hZKKNCMEAwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMC
        AgQwHQYDVR0OBBYEFB3+kxDTN40/JkWPNGP9Po7GSkndMAoGCCqGSM49BAMCA0gA
        MEUCIQCl44eYJxDDZV8TNJIMb538beWuoeY817+5i3A0IrT4KAIgUQVMUSQmPAK6
        EkWY9SAif2rv+gfCSpPbcxMfXYIr9Es=
        -----END CERTIFICATE-----
        """
    static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBojCCAUmgAwIBAgIBAjAKBggqhkjOPQQDAjAYMRYwFAYDVQQDDA1mbG93IHRl
        c3RzIENBMCAXDTAwMDEwMTAwMDAwMFoYDzIxMjYwMTAxMDAwMDAwWjAbMRkwFwYD
        VQQDDBBmbG93LXBpbm5lZC50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
        aBoybUDfX85xIqiXjExWZZxfW7PVJaEiyQTPfHrn5wm7t9YnmqKQ4VBffq6n2I4O
        aOZXzdEIYzMTl6qaNy0OV6N/MH0wCQYDVR0TBAIwADAbBgNVHREEFDASghBmbG93
        LXBpbm5lZC50ZXN0MBMGA1UdJQQMMAoGCCsGAQUFBwMBMB8GA1UdIwQYMBaAFB3+
        kxDTN40/JkWPNGP9Po7GSkndMB0GA1UdDgQWBBQ83n569pvqudGDBAjoA6mTFSiJ
        mTAKBggqhkjOPQQDAgNHADBEAiA8rSYObeo5Ty4MU43UvqKeYwtvcUrEXM/5nZH2
        s34BbAIgXf8zjtOacQ76IBC+REZxkANQGCyLO0Dm4k3nmilNrLQ=
        -----END CERTIFICATE-----
        """
    static let privateKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgYP4qEWxMpoxehE/c
        wxcXyNjsFWJxQf6Lo88LvbZU5bmhRANCAARoGjJtQN9fznEiqJeMTFZlnF9bs9Ul
        oSLJBM98eufnCbu31ieaopDhUF9+rqfYjg5o5lfN0QhjMxOXqpo3LQ5X
        -----END PRIVATE KEY-----
        """

    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let port: Int
    let connections = NIOLockedValueBox(0)
    private let channel: Channel

    /// Listens on `address` (`127.0.0.1`, `::1`) at `port`, any free one if 0.
    init(address: String = "127.0.0.1", port: Int = 0) throws {
        let certificate = try NIOSSLCertificate(bytes: Array(Self.certificate.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(Self.privateKey.utf8), format: .pem)
        let context = try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(certificate)],
                                                                                privateKey: .privateKey(key)))
        let connections = self.connections
        let served = address.contains(":") ? "[\(address)]" : address
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.withLockedValue { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Answer(served: served))
                }
            }
        channel = try bootstrap.bind(host: address, port: port).wait()
        self.port = channel.localAddress!.port!
    }

    func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let served: String

        init(served: String) { self.served = served }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            let text = #"{"served":"\#(served)"}"#
            let headers = HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", "\(text.utf8.count)")])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
