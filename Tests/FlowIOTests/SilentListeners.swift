import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Loopback listeners that never answer, for the messages of a host that
/// does not: one whose connections the kernel accepts and no one reads
/// (`listen` with room in its queue, never `accept`), and one whose queue
/// is full, so a new connection is never accepted at all (its SYN is
/// dropped, and the client waits).
final class SilentListener {
    let port: Int
    private var descriptors: [Int32] = []

    /// `acceptsConnections`: whether the kernel completes a new connection.
    init(acceptsConnections: Bool) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        descriptors.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, acceptsConnections ? 64 : 0) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard !acceptsConnections else { return }
        // Fill the accept queue: connect until a connection is left waiting
        // for its handshake (on Linux a queue of 0 holds one).
        for _ in 0..<16 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            descriptors.append(client)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            var waiting = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
            if poll(&waiting, 1, 500) == 0 { return }
        }
        throw POSIXError(.EAGAIN)
    }

    deinit { for descriptor in descriptors { close(descriptor) } }
}

/// A loopback listener that accepts each connection and closes it at once,
/// counting them: where a client connected, and whether it did at all.
final class ClosingListener: Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let port: Int
    let connections = NIOLockedValueBox(0)
    private let channel: Channel

    /// Listens on `address` (`127.0.0.1`, `::1`) at `port`, any free one if 0.
    init(address: String = "127.0.0.1", port: Int = 0) throws {
        let connections = self.connections
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.withLockedValue { $0 += 1 }
                return channel.close()
            }
            .bind(host: address, port: port).wait()
        self.port = channel.localAddress!.port!
    }

    func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}
