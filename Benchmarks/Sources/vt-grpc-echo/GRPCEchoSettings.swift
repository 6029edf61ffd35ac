import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOPosix

/// The one method both ends use, its pass-through coding, and the transport's settings.
///
/// No protobuf: the request and the response are the payload's bytes as they are, so the peer
/// is timed on its transport (HTTP/2 framing, HPACK, streams, the async handler), not on a codec.
enum GRPCEchoSettings {
    /// `/vt.bench.Echo/Echo`.
    static let method = MethodDescriptor(fullyQualifiedService: "vt.bench.Echo", method: "Echo")

    /// What a run measures, which picks the settings the transport's documentation advises for it.
    enum Mode: String {
        /// One call in flight: flush coalescing off, which the transport's documentation advises
        /// for a latency-sensitive, low-throughput workload (it would hold each flush up to 100 µs).
        case latency
        /// Many calls in flight: the transport's defaults, flush coalescing on (100 µs or 64 KiB),
        /// which its documentation says improves throughput.
        case throughput
    }

    /// Both ends run one NIO event loop thread, the benchmark's choice and not the transport's
    /// default (NIO's shared group, a thread a core): the server is pinned to one vCPU, as ours
    /// runs one event loop (the handlers run on Swift's global executor, as gRPC schedules them).
    static let eventLoopThreads = 1

    /// The server transport's settings for `mode`; everything else is the transport's defaults
    /// (16 KiB frames, a flow-control window of 64 KiB less one byte, no compression).
    static func server(_ mode: Mode) -> HTTP2ServerTransport.Posix.Config {
        .defaults { config in
            if mode == .latency { config.connection.flushCoalescing = nil }
        }
    }

    /// The client transport's settings for `mode`, as ``server(_:)`` chooses them; its defaults
    /// differ from the server's in the flow-control window, 8 MiB.
    static func client(_ mode: Mode) -> HTTP2ClientTransport.Posix.Config {
        .defaults { config in
            if mode == .latency { config.connection.flushCoalescing = nil }
        }
    }
}

/// Bytes in, the same bytes out: the serializer and deserializer of both ends.
struct PassThroughCoding: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes {
        Bytes(message)
    }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
