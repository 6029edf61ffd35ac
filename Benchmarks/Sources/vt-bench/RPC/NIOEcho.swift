import Foundation
import NIOCore
import NIOPosix

/// A second baseline for the RPC latency section: the same raw length-prefixed echo as the C
/// program (4-byte big-endian length, then the payload), written on SwiftNIO, the most tuned
/// Swift networking stack, with its handlers called straight from its epoll loop (no Swift
/// Concurrency on the path). Ours over it says what a Swift stack costs beyond a C one before
/// any envelope, codec or async handler; ours over C says it after them.
///
/// Both roles run as their own processes, pinned by the driver like the others:
/// `vt-bench nio-echo-server PATH` and `vt-bench nio-echo-latency PATH PAYLOAD COUNT OUT`.
enum NIOEcho {
    /// Serves the echo on `path` with `threads` event loops until the process is stopped.
    static func server(path: String, threads: Int = 1) async {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
        unlink(path)
        do {
            let channel = try await ServerBootstrap(group: group)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(EchoHandler())
                    }
                }
                .bind(unixDomainSocketPath: path)
                .get()
            try await channel.closeFuture.get()
        } catch {
            fail("the NIO echo cannot serve \(path): \(error)")
        }
    }

    /// One frame of `payload` bytes in flight on `path`; after `count / 10` warm-up frames, writes
    /// `count` round-trip times (nanoseconds, native uint64, as the C client does) to `output`.
    static func latency(path: String, payload: Int, count: Int, output: String) async {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var frame = ByteBuffer()
        frame.writeInteger(UInt32(payload))
        frame.writeBytes((0..<payload).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        let done = group.next().makePromise(of: [UInt64].self)
        do {
            let channel = try await ClientBootstrap(group: group)
                .channelInitializer { [frame] channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(
                            PingPongHandler(frame: frame, warmup: count / 10, count: count, done: done))
                    }
                }
                .connect(unixDomainSocketPath: path)
                .get()
            let samples = try await done.futureResult.get()
            try await channel.close()
            let data = samples.withUnsafeBytes { Data($0) }
            guard FileManager.default.createFile(atPath: output, contents: data) else { fail("cannot write \(output)") }
        } catch {
            fail("the NIO echo client on \(path) failed: \(error)")
        }
        try? await group.shutdownGracefully()
    }

    /// Cuts the stream into whole frames, length prefix included.
    struct FrameDecoder: ByteToMessageDecoder {
        typealias InboundOut = ByteBuffer

        mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
            guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self),
                let frame = buffer.readSlice(length: 4 + Int(length))
            else { return .needMoreData }
            context.fireChannelRead(Self.wrapInboundOut(frame))
            return .continue
        }
    }

    /// Writes each frame back, flushing once per read (as the C echo writes once per read).
    final class EchoHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.write(data, promise: nil)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            context.flush()
        }
    }

    /// Sends the next frame as each answer arrives, timing each round trip.
    final class PingPongHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let frame: ByteBuffer
        private let warmup: Int
        private let count: Int
        private let done: EventLoopPromise<[UInt64]>
        private var samples: [UInt64] = []
        private var answered = 0
        private var sentAt: UInt64 = 0

        init(frame: ByteBuffer, warmup: Int, count: Int, done: EventLoopPromise<[UInt64]>) {
            self.frame = frame
            self.warmup = warmup
            self.count = count
            self.done = done
            samples.reserveCapacity(count)
        }

        func channelActive(context: ChannelHandlerContext) {
            send(context)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let now = monotonicNanoseconds()
            if answered >= warmup { samples.append(now - sentAt) }
            answered += 1
            if answered == warmup + count {
                done.succeed(samples)
            } else {
                send(context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            done.fail(ChannelError.ioOnClosedChannel)
        }

        private func send(_ context: ChannelHandlerContext) {
            sentAt = monotonicNanoseconds()
            context.writeAndFlush(Self.wrapOutboundOut(frame), promise: nil)
        }
    }
}
