import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOCore
import NIOPosix

/// The one method both ends use, its pass-through coding, and the transport's settings.
///
/// No protobuf: the request and the response are the payload's bytes as they are, so the peer
/// is timed on its transport (HTTP/2 framing, HPACK, streams, the async handler), not on a codec.
enum GRPCEchoSettings {
    /// `/vt.bench.Echo/Echo`.
    static let method = MethodDescriptor(fullyQualifiedService: "vt.bench.Echo", method: "Echo")

    /// How both ends run: the threads, the executor and flush coalescing.
    enum Setup: String {
        /// One call in flight: flush coalescing off, which the transport's documentation advises
        /// for a latency-sensitive, low-throughput workload (it would hold each flush up to 100 µs).
        case latency
        /// Many calls in flight: the transport's defaults, flush coalescing on (100 µs or 64 KiB),
        /// which its documentation says improves throughput.
        case throughput
        /// Tuned (see ``isTuned``), flush coalescing on.
        case tunedCoalesced = "tuned-coalesced"
        /// Tuned (see ``isTuned``), flush coalescing off.
        case tunedUncoalesced = "tuned-uncoalesced"

        /// Tuned: NIO's shared group (``MultiThreadedEventLoopGroup/singleton``, a thread for each
        /// vCPU the process may run on) is Swift's global executor too, and the executor the
        /// end's tasks prefer (``SharedGroupExecutor``), so a handler, a caller and the transport
        /// under them run on the same threads, with no hop between executors.
        /// Otherwise one NIO event loop thread, and the tasks on Swift's own global executor.
        var isTuned: Bool { self == .tunedCoalesced || self == .tunedUncoalesced }

        /// Whether both ends coalesce flushes, at the transport's defaults (100 µs or 64 KiB).
        var coalescesFlushes: Bool { self == .throughput || self == .tunedCoalesced }
    }

    /// Sets up the process for `setup` before any task runs; for a tuned setup, prints
    /// `nio-executor=yes` when NIO's shared group became Swift's global executor, `nio-executor=no`
    /// when the runtime refused it (the calls then hop between executors as untuned).
    static func prepare(_ setup: Setup) {
        guard setup.isTuned else { return }
        if let cpus = allowedCPUs() { NIOSingletons.groupLoopCountSuggestion = cpus }
        let installed = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        FileHandle.standardOutput.write(Data("nio-executor=\(installed ? "yes" : "no")\n".utf8))
    }

    /// The executor an end's tasks prefer with `setup`: the shared group's when tuned, else none.
    static func taskExecutor(_ setup: Setup) -> (any TaskExecutor)? {
        setup.isTuned ? SharedGroupExecutor.shared : nil
    }

    /// The event loop group of an end with `setup`: the shared one when tuned, else a group of one
    /// thread (the benchmark's choice, not the transport's default: the server is pinned to one
    /// vCPU, as ours runs one event loop).
    static func eventLoopGroup(_ setup: Setup) -> MultiThreadedEventLoopGroup {
        setup.isTuned ? .singleton : MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// The server transport's settings for `setup`; everything else is the transport's defaults
    /// (16 KiB frames, a flow-control window of 64 KiB less one byte, no compression).
    static func server(_ setup: Setup) -> HTTP2ServerTransport.Posix.Config {
        .defaults { config in
            config.connection.flushCoalescing = setup.coalescesFlushes ? .defaults : nil
        }
    }

    /// The client transport's settings for `setup`, as ``server(_:)`` chooses them; its defaults
    /// differ from the server's in the flow-control window, 8 MiB.
    static func client(_ setup: Setup) -> HTTP2ClientTransport.Posix.Config {
        .defaults { config in
            config.connection.flushCoalescing = setup.coalescesFlushes ? .defaults : nil
        }
    }

    /// How many vCPUs this process may run on (its affinity, as `taskset` sets it: the mask
    /// `Cpus_allowed` of `/proc/self/status`), or nil when unknown. NIO's own count reads the
    /// machine's and the cgroup's, and would start more loops than a pinned process has vCPUs.
    private static func allowedCPUs() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let mask = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        else { return nil }
        let count = mask.dropFirst("Cpus_allowed:".count).compactMap(\.hexDigitValue).reduce(0) {
            $0 + $1.nonzeroBitCount
        }
        return count > 0 ? count : nil
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
