import VerticalsContractTesting
import VerticalsWire

/// One request the fuzzer sends: which operation, under which session, the Input it was built
/// from and the body that goes on the wire (the Input's encoding, or a raw change of it).
struct FuzzRequest {
    /// Whose token the Input carries.
    enum Session: String {
        case none, patient, admin
    }

    let target: SuiteContracts.Target
    let session: Session
    /// The Input as built (nil for a replayed frame whose body does not decode).
    let input: MessageValue?
    /// The body sent.
    let body: [UInt8]
    /// How the body differs from the Input's encoding, when it does.
    let rawChange: String?

    /// The field sessions' tokens go in, set by ``LiveFuzzer``.
    var tokenField: String?

    /// Whether the Input carries a real session's token (a replay needs a fresh one).
    var carriesToken: Bool {
        guard session != .none, let tokenField, let input,
            let field = target.operation.input.schema.field(named: tokenField)
        else { return false }
        return input[field.tag] != nil
    }

    /// The whole frame, length prefix included, as `make fuzz-live REPLAY=HEX` sends it again.
    var frame: [UInt8] {
        Message.frame(
            Envelope(
                kind: .request, correlationID: 1, operation: target.operation.fullName, deadlineMicroseconds: 10_000_000
            ),
            rawBody: body)
    }

    /// The frame in hex, `VERTICAL:` first for a built-in (which every vertical serves).
    var replayText: String {
        (target.operation.service == target.vertical ? "" : target.vertical + ":") + Hex.encode(frame)
    }

    /// The Input in a line, long values shortened.
    var summary: String {
        let schema = target.operation.input.schema
        var text = input.map { ValueText.describe($0, schema) } ?? "(a body of \(body.count) bytes)"
        if let rawChange { text += ", encoded then \(rawChange)" }
        return text
    }

    /// Why no `svc-supervisor call` line is printed, when none is.
    var jsonProblem: String? {
        if rawChange != nil { return "the body was changed after encoding" }
        guard let input else { return "the body does not decode" }
        do {
            let schema = target.operation.input.schema
            let json = try input.jsonText(as: schema)
            if json.utf8.count > Self.longestCallLine { return "its JSON is \(json.utf8.count) bytes" }
            let parsed = try MessageValue(json: json, as: schema)
            return (try? parsed.encoded(as: schema)) == body ? nil : "its JSON does not read back as the same body"
        } catch {
            return "\(error)"
        }
    }

    /// The longest JSON printed in a call line.
    static let longestCallLine = 4_096

    /// `svc-supervisor call VERTICAL OPERATION 'JSON'`, when JSON carries the Input and the line stays short.
    var callLine: String? {
        let schema = target.operation.input.schema
        guard rawChange == nil, let input, let json = try? input.jsonText(as: schema),
            json.utf8.count <= Self.longestCallLine,
            let parsed = try? MessageValue(json: json, as: schema), (try? parsed.encoded(as: schema)) == body
        else { return nil }
        let name = target.operation.service == target.vertical ? target.operation.name : target.operation.fullName
        return "svc-supervisor call \(target.vertical) \(name) '\(json.replacing("'", with: "'\\''"))'"
    }
}

/// A message value in one line for a report: long strings, lists and byte runs shortened.
enum ValueText {
    static func describe(_ value: MessageValue, _ schema: MessageSchema) -> String {
        let fields = value.fields.map { field -> String in
            let descriptor = schema.field(tag: field.tag)
            return "\(descriptor?.name ?? "#\(field.tag)")=\(describe(field.value, descriptor?.type))"
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func describe(_ value: WireValue, _ type: FieldType?) -> String {
        switch value {
        case .bool(let bool): return "\(bool)"
        case .int(let int): return "\(int)"
        case .uint(let uint): return "\(uint)"
        case .double(let double): return "\(double)"
        case .timestamp(let timestamp):
            let micros = timestamp.microsecondsSinceEpoch
            let year = 1970 + Double(micros) / 31_556_952_000_000
            return "\(micros)us (year \(Int(year.rounded(.down))))"
        case .string(let text): return short(text)
        case .enumeration(let name): return "case " + short(name)
        case .bytes(let bytes): return "bytes(\(bytes.count))"
        case .message(let nested):
            if case .message(let reference)? = type { return describe(nested, reference.schema) }
            return "{…}"
        case .list(let elements):
            if elements.count > 3, let first = elements.first {
                return "[\(elements.count) × \(describe(first, type))]"
            }
            return "[" + elements.map { describe($0, type) }.joined(separator: ", ") + "]"
        }
    }

    /// A string quoted, or its size and start when long or full of non-ASCII.
    static func short(_ text: String) -> String {
        let ascii = text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 }
        if text.utf8.count <= 48 && ascii { return "\"\(text)\"" }
        let start = text.unicodeScalars.prefix(6).map {
            $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}"
        }.joined()
        return "<\(text.utf8.count) bytes, \(text.unicodeScalars.count) scalars: \"\(start)…\">"
    }
}
