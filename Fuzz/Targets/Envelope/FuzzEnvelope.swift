import FuzzSupport
import VerticalsWire

/// The envelope parser over any payload: it never crashes, and what it accepts frames again
/// to the same envelope and body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelope(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let payload = Array(UnsafeBufferPointer(start: start, count: count))
    guard let message = try? Message(payload: payload) else { return 0 }
    let frame = Message.frame(message.envelope, rawBody: message.body)
    guard let again = try? Message(payload: Array(frame.dropFirst(4))) else {
        preconditionFailure("an accepted envelope did not survive re-framing: \(message.envelope)")
    }
    precondition(again.envelope == message.envelope, "envelope changed: \(message.envelope) -> \(again.envelope)")
    precondition(again.body == message.body, "body changed in re-framing")
    return 0
}

/// The program's entry (SwiftPM calls it `fuzz_envelope_main`): libFuzzer over ``fuzzEnvelope``.
@_cdecl("fuzz_envelope_main")
public func fuzzEnvelopeMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzEnvelope)
}
