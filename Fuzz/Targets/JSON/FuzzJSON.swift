import FuzzSupport
import IOInterface
import VerticalsContract
import VerticalsWire

/// The JSON form `svc-supervisor call` reads, against each Input and Output schema: it never
/// crashes, what it accepts encodes to a body the generic decoder reads back, and the schema
/// rebuilt from `describe` (what the CLI validates with) accepts exactly the same.
/// Input: byte 0 picks the message type, the rest is JSON text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let types = MessageTypes.all
    let pick = Int(start[0]) % types.count
    let schema = types[pick].schema
    let text = String(decoding: UnsafeBufferPointer(start: start + 1, count: count - 1), as: UTF8.self)
    let parsed = try? MessageValue(json: text, as: schema)
    precondition(
        MessageTypes.sameReading(parsed, try? MessageValue(json: text, as: MessageTypes.described[pick]), as: schema),
        "\(schema.name): the described schema reads the JSON otherwise")
    guard let value = parsed, let body = try? value.encoded(as: schema) else { return 0 }
    guard let back = try? MessageValue(decoding: body, as: schema) else {
        preconditionFailure("\(schema.name): JSON accepted, but its encoding does not decode")
    }
    _ = try? back.jsonText(as: schema)
    return 0
}

/// The program's entry (SwiftPM calls it `fuzz_json_main`): libFuzzer over ``fuzzJSON``.
@_cdecl("fuzz_json_main")
public func fuzzJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzJSON)
}
