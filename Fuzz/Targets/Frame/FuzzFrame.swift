import FuzzSupport
import VerticalsWire

/// The frame decoder over any byte stream, split into reads of any size: it never crashes,
/// never returns a payload of 0 or over the limit, and once it fails it keeps failing.
/// Input: byte 0 picks the read size (1...256), the rest is the stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrame(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: start, count: count)
    let chunk = Int(input[0]) + 1
    let stream = input.dropFirst()
    var decoder = FrameDecoder(maxFrameSize: 1024)
    var offset = stream.startIndex
    var failed = false
    while offset < stream.endIndex {
        let end = min(offset + chunk, stream.endIndex)
        decoder.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[offset..<end])))
        offset = end
        while true {
            do {
                guard let payload = try decoder.nextFrame() else { break }
                precondition(!failed, "a frame came after the stream failed")
                precondition(!payload.isEmpty && payload.count <= 1024, "payload of \(payload.count) bytes")
                _ = try? Message(payload: payload)
            } catch {
                failed = true
                break
            }
        }
    }
    return 0
}

/// The program's entry (SwiftPM calls it `fuzz_frame_main`): libFuzzer over ``fuzzFrame``.
@_cdecl("fuzz_frame_main")
public func fuzzFrameMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzFrame)
}
