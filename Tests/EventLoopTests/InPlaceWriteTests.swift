import Testing
import VerticalsEventLoop
import VerticalsWire

/// `Connection.writeFrame(expectedBytes:_:)`: a frame encoded straight into the bytes a turn
/// corks, among frames written as arrays, whatever its length turns out to be.
@Suite("Connection: frames written in place")
struct InPlaceWriteTests {
    /// Appends `payload` as one frame, as `Message.appendFrame` does: the prefix patched after.
    static func append(_ payload: [UInt8], to writer: inout ByteWriter) {
        let start = writer.count
        writer.writeUInt32BE(0)
        writer.writeBytes(payload)
        writer.setUInt32BE(UInt32(writer.count - start - FrameEncoder.headerSize), at: start)
    }

    @Test func framesWrittenInPlace_amongArrayFrames_comeBackWholeAndInOrder() async throws {
        // (payload, expected length, by writeFrame): short ones in place; one expected short
        // that is a megabyte; one expected long (its own array); arrays between them.
        let writes: [(payload: [UInt8], expected: Int, byWriteFrame: Bool)] = [
            (Array("first in place".utf8), 64, true),
            (Array("an array".utf8), 0, false),
            (Array("second in place".utf8), 64, true),
            ((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }, 64, true),
            (Array("after the long one".utf8), 64, true),
            ((0..<(300 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) }, 300 << 10, true),
            (Array("last".utf8), 0, false),
        ]
        let payloads = writes.map(\.payload)
        try await withSocketPath("in-place.sock") { path, loop in
            _ = try await startEchoServer(at: path, on: loop)
            let lengths = Recorder<Int>()
            let received = try await echoedFrames(at: path, on: loop, count: payloads.count) { connection in
                for write in writes {
                    if write.byWriteFrame {
                        lengths.append(
                            connection.writeFrame(expectedBytes: write.expected) { writer in
                                Self.append(write.payload, to: &writer)
                            })
                    } else {
                        connection.write(frame(write.payload))
                    }
                }
            }
            let same = received == payloads // (no megabyte diff on failure)
            #expect(received.map(\.count) == payloads.map(\.count))
            #expect(same)
            #expect(
                lengths.values
                    == writes.filter(\.byWriteFrame).map { $0.payload.count + FrameEncoder.headerSize })
        }
    }

    @Test func aFrameWrittenInPlaceOnAClosedConnection_goesNowhere_andSaysItsLength() async throws {
        try await withSocketPath("closed.sock") { path, loop in
            _ = try await startEchoServer(at: path, on: loop)
            let length = Expectation<Int>("the length")
            try await loop.submit {
                Connection.connect(path: path, on: loop) { result in
                    guard case .success(let connection) = result else { return }
                    connection.close()
                    length.fulfill(
                        connection.writeFrame(expectedBytes: 16) { Self.append(Array("late".utf8), to: &$0) })
                }
            }
            #expect(try await length.value(timeout: .seconds(60)) == 4 + FrameEncoder.headerSize)
        }
    }
}
