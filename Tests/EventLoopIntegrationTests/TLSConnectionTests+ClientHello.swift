import Glibc
import Testing
import VerticalsEventLoop
import VerticalsTesting

/// The ClientHello a client sends, read at the byte level by a listener that answers nothing:
/// no server name (SNI), no ALPN, TLS 1.3 alone (docs/PROTOCOL.md § 1a).
extension TLSConnectionTests {
    @Test func clientHello_namesNoServer_offersNoALPN_andOnlyTLS13() async throws {
        defer { loop.shutdown() }
        let (listener, port) = try loopbackListener()
        defer { close(listener) }
        let context = try TLSContext(files: Self.files(try ca.issue("orders")), role: .client)
        loop.execute { [loop] in
            Connection.connect(to: .tcp(host: "127.0.0.1", port: port), on: loop, tls: context, peerName: "echo") { _ in
            }
        }
        var poll = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        try #require(Glibc.poll(&poll, 1, 20_000) == 1, "the client never connected")
        let accepted = accept(listener, nil, nil)
        try #require(accepted >= 0)
        defer { close(accepted) }
        let hello = try #require(Self.readRecord(accepted), "no whole TLS record came")
        let extensions = try #require(Self.clientHelloExtensions(hello), "not a ClientHello: \(hello.prefix(16))")
        #expect(extensions[0] == nil, "the ClientHello names a server (SNI)")
        #expect(extensions[16] == nil, "the ClientHello offers ALPN")
        // supported_versions: a length byte, then two bytes a version; 0x0304 is TLS 1.3.
        #expect(extensions[43] == [2, 0x03, 0x04], "the versions offered: \(extensions[43] ?? [])")
    }

    /// One whole TLS record from `descriptor` (its 5-byte header included), nil when the peer
    /// closes first or nothing comes within 20 s.
    static func readRecord(_ descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var poll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while bytes.count < 5 || bytes.count < 5 + Int(bytes[3]) << 8 + Int(bytes[4]) {
            guard Glibc.poll(&poll, 1, 20_000) == 1 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            bytes += chunk.prefix(count)
        }
        return bytes
    }

    /// The extensions of the ClientHello in `record` by type, each with its data; nil when the
    /// record holds no ClientHello.
    static func clientHelloExtensions(_ record: [UInt8]) -> [Int: [UInt8]]? {
        // Record header (5), handshake header (4), legacy version (2), random (32).
        guard record.count > 43, record[0] == 0x16, record[5] == 0x01 else { return nil }
        var index = 43
        func take(_ width: Int) -> Int? {
            guard index + width <= record.count else { return nil }
            let value = record[index..<index + width].reduce(0) { $0 << 8 | Int($1) }
            index += width
            return value
        }
        guard let session = take(1) else { return nil }
        index += session
        guard let suites = take(2) else { return nil }
        index += suites
        guard let compression = take(1) else { return nil }
        index += compression
        guard let total = take(2), index + total <= record.count else { return nil }
        var extensions: [Int: [UInt8]] = [:]
        let end = index + total
        while index < end {
            guard let type = take(2), let length = take(2), index + length <= end else { return nil }
            extensions[type] = Array(record[index..<index + length])
            index += length
        }
        return extensions
    }
}
