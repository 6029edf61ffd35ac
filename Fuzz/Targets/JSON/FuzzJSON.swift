import FuzzSupport
import IOInterface
import Wire

/// The JSON form `svc-supervisor call` reads, against each Input and Output schema: it never
/// crashes, and what it accepts encodes to a body the generic decoder reads back.
/// Input: byte 0 picks the message type, the rest is JSON text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let types = MessageTypes.all
    let schema = types[Int(start[0]) % types.count].schema
    let text = String(decoding: UnsafeBufferPointer(start: start + 1, count: count - 1), as: UTF8.self)
    guard let value = try? MessageValue(json: text, as: schema), let body = try? value.encoded(as: schema) else { return 0 }
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
