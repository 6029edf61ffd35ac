import FuzzSupport
import IOInterface
import VerticalsContract
import VerticalsWire

/// Every message of IOInterface (each operation's Input and Output, the error body), decoded
/// by the fast path and the schema-driven one. Neither may crash; what the fast path accepts
/// must encode to bytes that decode and encode again to the same bytes; the schema rebuilt from
/// `describe` must read exactly what the compiled one reads.
/// Input: byte 0 picks the message type, the rest is its body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBody(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let types = MessageTypes.all
    let pick = Int(start[0]) % types.count
    let type = types[pick]
    let body = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    if let value = try? type.init(decoding: body) {
        let encoded = value.encodedBody()
        guard let again = try? type.init(decoding: encoded) else {
            preconditionFailure("\(type.schema.name): its own encoding did not decode")
        }
        precondition(again.encodedBody() == encoded, "\(type.schema.name): encoding is not stable")
    }
    let generic = try? MessageValue(decoding: body, as: type.schema)
    let described = try? MessageValue(decoding: body, as: MessageTypes.described[pick])
    precondition(
        MessageTypes.sameReading(generic, described, as: type.schema),
        "\(type.schema.name): the described schema reads the body otherwise")
    if let generic {
        _ = try? generic.encoded(as: type.schema)
        _ = try? generic.jsonText(as: type.schema)
    }
    return 0
}

/// The program's entry (SwiftPM calls it `fuzz_body_main`): libFuzzer over ``fuzzBody``.
@_cdecl("fuzz_body_main")
public func fuzzBodyMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzBody)
}
