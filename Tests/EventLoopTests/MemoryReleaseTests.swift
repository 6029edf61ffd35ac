import Testing
import VerticalsEventLoop
import VerticalsWire

/// A loop keeps what long frames free while they keep coming, and hands it back once they stop
/// (`EventLoop+MemoryRelease.swift`).
@Suite("EventLoop: memory freed by long frames")
struct MemoryReleaseTests {
    @Test func shortFrames_armNoRelease_aLongOne_releasesOnceAfterItsDelay() async throws {
        try await withSocketPath("echo.sock") { path, loop in
            _ = try await startEchoServer(at: path, on: loop)
            let client = try RawClient(connectingTo: path)
            let short = frame([UInt8](repeating: 7, count: FrameDecoder.gatherThreshold))
            for _ in 0..<20 {
                try client.send(short)
                #expect(try client.receive(count: short.count) == short)
            }
            let afterShort = try await loop.submit { (loop.isMemoryReleaseArmed, loop.memoryReleaseCount) }
            #expect(afterShort == (false, 0), "frames of up to 64 KiB armed the release")

            let long = frame((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            try client.send(long)
            let echoed = try client.receive(count: long.count)
            #expect(echoed == long)
            let afterLong = try await loop.submit { (loop.isMemoryReleaseArmed, loop.memoryReleaseCount) }
            #expect(afterLong.0 || afterLong.1 == 1, "a long frame left no release armed")

            try await eventually("the release after the long frame", timeout: .seconds(60)) {
                try await loop.submit { loop.memoryReleaseCount == 1 && !loop.isMemoryReleaseArmed }
            }
            // Short frames after the release do not arm it again.
            try client.send(short)
            #expect(try client.receive(count: short.count) == short)
            let afterRelease = try await loop.submit { (loop.isMemoryReleaseArmed, loop.memoryReleaseCount) }
            #expect(afterRelease == (false, 1))
        }
    }

    @Test func aLoopWithAReleaseArmed_shutsDownAndIsFreed() async throws {
        try await withTemporaryDirectory { directory in
            weak var freed: EventLoop?
            do {
                let loop = try EventLoop(name: "release-test")
                freed = loop
                let path = directory + "/echo.sock"
                _ = try await startEchoServer(at: path, on: loop)
                let client = try RawClient(connectingTo: path)
                let long = frame([UInt8](repeating: 1, count: 256 << 10))
                try client.send(long)
                #expect(try client.receive(count: long.count).count == long.count)
                #expect(try await loop.submit { loop.isMemoryReleaseArmed })
                // The armed release neither keeps the loop running nor keeps it in memory.
                loop.shutdown()
            }
            #expect(freed == nil, "the loop outlived its shutdown")
        }
    }
}
