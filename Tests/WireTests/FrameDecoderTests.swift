import Testing
import VerticalsWire

@Suite("FrameDecoder")
struct FrameDecoderTests {
    /// Feeds `stream` in chunks cut at `cuts` and returns every frame, or the first error.
    private func decode(_ stream: [UInt8], cuts: [Int], limit: Int = FrameDecoder.defaultMaxFrameSize)
        -> Result<[[UInt8]], FrameError>
    {
        var decoder = FrameDecoder(maxFrameSize: limit)
        var frames: [[UInt8]] = []
        var start = 0
        for end in cuts + [stream.count] {
            decoder.append(stream[start..<end])
            start = end
            do {
                while let frame = try decoder.nextFrame() { frames.append(frame) }
            } catch {
                return .failure(error)
            }
        }
        return .success(frames)
    }

    @Test("any split of a stream of random frames yields the same frames", arguments: UInt64(1)...24)
    func decoder_givenAnySplitOfTheStream_yieldsTheSameFrames(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let payloads = (0..<Int.random(in: 1...40, using: &random)).map { _ in
            // Mostly small frames, now and then one that crosses typical read sizes.
            let size =
                Bool.random(using: &random)
                ? Int.random(in: 1...40, using: &random) : Int.random(in: 1...5000, using: &random)
            return random.bytes(size)
        }
        let stream = payloads.flatMap { FrameEncoder.frame($0) }
        for _ in 0..<40 {
            let cutCount = Int.random(in: 0...min(stream.count, 60), using: &random)
            // Repeated cuts give empty chunks, which must change nothing either.
            let cuts = (0..<cutCount).map { _ in Int.random(in: 0...stream.count, using: &random) }.sorted()
            #expect(try decode(stream, cuts: cuts).get() == payloads)
        }
        #expect(try decode(stream, cuts: Array(0..<stream.count)).get() == payloads, "one byte at a time")
    }

    /// Feeds `stream` as a libuv reader does: each chunk (cut at `cuts`) goes into the decoder's
    /// gathering space while it offers one, as far as it reaches, and through `append` otherwise.
    /// Returns the frames and how many bytes went into the gathering space.
    private func decodeReadingIntoTheGatheringSpace(_ stream: [UInt8], cuts: [Int]) throws -> (
        frames: [[UInt8]], direct: Int
    ) {
        var decoder = FrameDecoder()
        var frames: [[UInt8]] = []
        var start = 0
        var direct = 0
        for end in cuts + [stream.count] {
            while start < end {
                if let space = decoder.gatheringSpace() {
                    let count = min(space.count, end - start)
                    stream[start..<start + count].withUnsafeBytes { space.copyMemory(from: $0) }
                    decoder.didReceive(intoGatheringSpace: count)
                    direct += count
                    start += count
                } else {
                    decoder.append(stream[start..<end])
                    start = end
                }
                while let frame = try decoder.nextFrame() { frames.append(frame) }
            }
        }
        #expect(decoder.gatheringSpace() == nil)
        return (frames, direct)
    }

    @Test(
        "long frames, gathered on their own, come out whole and in order among short ones, appended or read into the gathering space",
        arguments: UInt64(1)...4)
    func decoder_givenFramesLongerThanTheGatherThreshold_yieldsTheSameFramesForAnySplit(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let long = FrameDecoder.gatherThreshold
        let payloads = (0..<8).map { index in
            random.bytes(
                index % 2 == 0
                    ? Int.random(in: 1...300, using: &random) : Int.random(in: long + 1...3 * long, using: &random))
        }
        let stream = payloads.flatMap { FrameEncoder.frame($0) }
        // Reads of at most 64 KiB, as a loop's read buffer takes them, then random splits.
        var splits = [Array(stride(from: 1 << 16, to: stream.count, by: 1 << 16))]
        for _ in 0..<6 {
            splits.append(
                (0..<Int.random(in: 0...40, using: &random)).map { _ in Int.random(in: 0...stream.count, using: &random)
                }.sorted())
        }
        for (index, cuts) in splits.enumerated() {
            #expect(try decode(stream, cuts: cuts).get() == payloads)
            let (frames, direct) = try decodeReadingIntoTheGatheringSpace(stream, cuts: cuts)
            #expect(frames == payloads)
            if index == 0 { #expect(direct > 0, "no byte was received into the gathering space") }
        }
    }

    @Test func decoder_offersAGatheringSpace_onlyForTheMissingBytesOfALongFrame() throws {
        let payload = [UInt8](repeating: 9, count: FrameDecoder.gatherThreshold + 10)
        var decoder = FrameDecoder()
        #expect(decoder.gatheringSpace() == nil)
        decoder.append(FrameEncoder.frame([1]) + FrameEncoder.frame(payload)[..<50])
        #expect(decoder.gatheringSpace() == nil, "nothing is gathered before the long frame's header is read")
        #expect(try decoder.nextFrame() == [1])
        #expect(try decoder.nextFrame() == nil)
        let offered = decoder.gatheringSpace()
        let space = try #require(offered)
        #expect(space.count == payload.count - 46)
        #expect(decoder.bufferedByteCount == 50)
        space.initializeMemory(as: UInt8.self, repeating: 9)
        decoder.didReceive(intoGatheringSpace: space.count)
        #expect(decoder.gatheringSpace() == nil, "a whole frame offers no space")
        #expect(decoder.bufferedByteCount == payload.count + 4)
        #expect(try decoder.nextFrame() == payload)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test(arguments: [16 << 10, 64 << 10])
    func decoder_givenALongFrameInChunks_keepsNoRoomForIt_afterOrWhileItArrives(chunk: Int) throws {
        let payload = (0..<(FrameDecoder.gatherThreshold * 2 + 7)).map { UInt8(truncatingIfNeeded: $0) }
        let stream = FrameEncoder.frame(payload)
        var decoder = FrameDecoder()
        var frames: [[UInt8]] = []
        for start in stride(from: 0, to: stream.count, by: chunk) {
            decoder.append(stream[start..<min(start + chunk, stream.count)])
            #expect(decoder.bufferCapacity == 0, "the long frame went through the buffer for short frames")
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        #expect(frames == [payload])
        #expect(decoder.bufferCapacity == 0)
    }

    @Test func decoder_givenTheEndOfALongFrameAndTheStartOfAnother_inOneChunk_yieldsBothInOrder() throws {
        let first = [UInt8](repeating: 1, count: FrameDecoder.gatherThreshold + 10)
        let second = [UInt8](repeating: 2, count: FrameDecoder.gatherThreshold + 20)
        let stream = FrameEncoder.frame(first) + FrameEncoder.frame(second)
        var decoder = FrameDecoder()
        decoder.append(stream[..<1000])
        // The rest of the first frame and the first bytes of the second, appended before the
        // first is taken (as a TLS read of two records does).
        decoder.append(stream[1000..<(first.count + 4 + 1000)])
        decoder.append(stream[(first.count + 4 + 1000)...])
        #expect(try decoder.nextFrame() == first)
        #expect(try decoder.nextFrame() == second)
        #expect(try decoder.nextFrame() == nil)
    }

    @Test func decoder_gatheringALongFrame_countsItsHeaderAndBytesAsBuffered_andThenTheBytesAfterIt() throws {
        let payload = [UInt8](repeating: 5, count: FrameDecoder.gatherThreshold + 10)
        let stream = FrameEncoder.frame(payload) + FrameEncoder.frame([1, 2])
        var decoder = FrameDecoder()
        decoder.append(stream[..<100])
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 100)
        // The rest of the long frame, the whole short one and nothing more in one chunk.
        decoder.append(stream[100...])
        #expect(decoder.bufferedByteCount == stream.count)
        #expect(try decoder.nextFrame() == payload)
        #expect(decoder.bufferedByteCount == 6)
        #expect(try decoder.nextFrame() == [1, 2])
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func decoder_givenOnlyTheHeaderOfTheLongestFrame_buffersOnlyWhatArrived() throws {
        var decoder = FrameDecoder()
        var header = ByteWriter()
        header.writeUInt32BE(UInt32(FrameDecoder.defaultMaxFrameSize))
        decoder.append(header.bytes + [7])
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 5)
        decoder.append(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 5)
    }

    @Test func decoder_givenLengthZero_failsWithEmptyFrame() {
        #expect(throws: FrameError.emptyFrame) {
            var decoder = FrameDecoder()
            decoder.append([0, 0, 0, 0])
            _ = try decoder.nextFrame()
        }
    }

    @Test func decoder_givenLengthOne_yieldsAOneBytePayload() throws {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0, 1, 0xAB])
        #expect(try decoder.nextFrame() == [0xAB])
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("a payload of exactly the limit is accepted", arguments: [1, 2, 64, 4096])
    func decoder_givenLengthAtTheLimit_yieldsThePayload(limit: Int) throws {
        let payload = [UInt8](repeating: 7, count: limit)
        #expect(try decode(FrameEncoder.frame(payload), cuts: [], limit: limit).get() == [payload])
    }

    @Test("a length one past the limit fails as soon as its header arrives", arguments: [1, 2, 64, 4096])
    func decoder_givenLengthPastTheLimit_failsBeforeThePayloadArrives(limit: Int) {
        var decoder = FrameDecoder(maxFrameSize: limit)
        var header = ByteWriter()
        header.writeUInt32BE(UInt32(limit + 1))
        decoder.append(header.bytes)
        #expect(throws: FrameError.oversized(length: UInt32(limit + 1), limit: limit)) { try decoder.nextFrame() }
    }

    @Test func decoder_withTheDefaultLimit_acceptsFourMebibytesAndRejectsOneByteMore() throws {
        let payload = [UInt8](repeating: 1, count: 4 << 20)
        #expect(try decode(FrameEncoder.frame(payload), cuts: [3, 70_000]).get() == [payload])
        var decoder = FrameDecoder()
        decoder.append([0x00, 0x40, 0x00, 0x01])
        #expect(throws: FrameError.oversized(length: (4 << 20) + 1, limit: 4 << 20)) { try decoder.nextFrame() }
    }

    @Test func decoder_givenTheLargestDeclarableLength_failsWithoutBuffering() {
        var decoder = FrameDecoder()
        decoder.append([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: FrameError.oversized(length: UInt32.max, limit: FrameDecoder.defaultMaxFrameSize)) {
            try decoder.nextFrame()
        }
    }

    @Test func decoder_givenAPartialHeaderOrPayload_waitsForMoreBytes() throws {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0])
        #expect(try decoder.nextFrame() == nil)
        decoder.append([3, 1, 2])
        #expect(try decoder.nextFrame() == nil)
        decoder.append([3])
        #expect(try decoder.nextFrame() == [1, 2, 3])
    }

    @Test("an error is sticky: good frames after it are never returned", arguments: [[0, 0, 0, 0], [0x01, 0, 0, 0]])
    func decoder_afterAnError_keepsFailing(badHeader: [UInt8]) throws {
        var decoder = FrameDecoder()
        decoder.append(FrameEncoder.frame([1]) + badHeader)
        #expect(try decoder.nextFrame() == [1])
        #expect(throws: FrameError.self) { try decoder.nextFrame() }
        decoder.append(FrameEncoder.frame([2]))
        for _ in 0..<3 {
            #expect(throws: FrameError.self) { try decoder.nextFrame() }
        }
    }

    @Test func frameError_describesWhatWasWrong() {
        #expect(FrameError.emptyFrame.description.contains("frame length 0"))
        let oversized = FrameError.oversized(length: 10, limit: 4)
        #expect(oversized.declaredLength == 10)
        #expect(oversized.description.contains("exceeds this receiver's limit of 4 bytes"))
    }
}
