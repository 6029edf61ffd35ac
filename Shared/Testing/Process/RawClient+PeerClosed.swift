import Glibc

extension RawClient {
    /// Whether the peer closed the connection (its end of stream or a reset waits to be read),
    /// asked without blocking and without reading anything.
    public var isClosedByPeer: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }
}
