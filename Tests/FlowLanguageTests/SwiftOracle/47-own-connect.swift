// A class's own `connect(seconds:)`.
final class Socket {
    var connected = false
    func connect(seconds: Int) -> String {
        connected = true
        return "connecting with timeout \(seconds)s"
    }
}
let socket = Socket()
print(socket.connect(seconds: 5))
print(socket.connected)
