// The contract versions one vt-testd build can serve and call, chosen by VT_TESTD_CONTRACT: a
// mixed-version suite without a second build. `2` adds an optional field to echo's Input and
// Output (an additive change); `breaking` makes echo's Input require a field earlier callers never
// send. Both keep the schema names, as a later build of the same contract does.
import VerticalsContract
import VerticalsTestSupport
import VerticalsWire

enum ContractVersion: String {
    case v1 = "1"
    case v2 = "2"
    case breaking

    /// The version the environment names; unset is `1`.
    static func from(_ environment: [String: String]) -> ContractVersion {
        environment["VT_TESTD_CONTRACT"].flatMap(ContractVersion.init(rawValue:)) ?? .v1
    }

    /// `service`'s echo as this version serves it, and the versions' handler: `text` in, the
    /// text and pid out.
    func echo(_ service: String) -> OperationDescriptor {
        switch self {
        case .v1: TestEcho(service: service).echo.descriptor
        case .v2: Self.echoV2(service).descriptor
        case .breaking: Self.echoBreaking(service).descriptor
        }
    }

    static func echoV2(_ service: String) -> Operation<EchoInputV2, EchoOutputV2> {
        Operation(service, "echo", summary: "Echo the text, optionally after a delay.")
    }

    static func echoBreaking(_ service: String) -> Operation<EchoInputBreaking, TestEcho.EchoOutput> {
        Operation(service, "echo", summary: "Echo the text, optionally after a delay.")
    }
}

/// `test.EchoInput` of version 2: an optional `note`.
struct EchoInputV2: WireMessage {
    var text: String
    var delayMilliseconds: Int
    var note: String?

    static let schema = MessageSchema(
        "test.EchoInput",
        [
            .required(1, "text", .string),
            .defaulted(2, "delayMilliseconds", .int, .int(0)),
            .optional(3, "note", .string),
        ])

    init(text: String, delayMilliseconds: Int = 0, note: String? = nil) {
        self.text = text
        self.delayMilliseconds = delayMilliseconds
        self.note = note
    }

    func encode(to body: inout BodyWriter) {
        body.write(1, text)
        body.write(2, delayMilliseconds)
        body.write(3, note)
    }

    init(from body: inout BodyReader) throws(WireDecodingError) {
        var text: String?
        var delay = 0
        var note: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: text = try body.read()
            case 2: delay = try body.read()
            case 3: note = try body.read()
            default: try body.skip()
            }
        }
        self.init(text: try body.required(text, 1), delayMilliseconds: delay, note: note)
    }
}

/// `test.EchoOutput` of version 2: an optional `note`.
struct EchoOutputV2: WireMessage {
    var text: String
    var servedBy: Int
    var note: String?

    static let schema = MessageSchema(
        "test.EchoOutput",
        [.required(1, "text", .string), .required(2, "servedBy", .int), .optional(3, "note", .string)])

    init(text: String, servedBy: Int, note: String? = nil) {
        self.text = text
        self.servedBy = servedBy
        self.note = note
    }

    func encode(to body: inout BodyWriter) {
        body.write(1, text)
        body.write(2, servedBy)
        body.write(3, note)
    }

    init(from body: inout BodyReader) throws(WireDecodingError) {
        var text: String?
        var servedBy: Int?
        var note: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: text = try body.read()
            case 2: servedBy = try body.read()
            case 3: note = try body.read()
            default: try body.skip()
            }
        }
        self.init(text: try body.required(text, 1), servedBy: try body.required(servedBy, 2), note: note)
    }
}

/// `test.EchoInput` of the breaking version: a required `volume`.
struct EchoInputBreaking: WireMessage {
    var text: String
    var volume: Int

    static let schema = MessageSchema(
        "test.EchoInput",
        [
            .required(1, "text", .string),
            .defaulted(2, "delayMilliseconds", .int, .int(0)),
            .required(3, "volume", .int),
        ])

    init(text: String, volume: Int) {
        self.text = text
        self.volume = volume
    }

    func encode(to body: inout BodyWriter) {
        body.write(1, text)
        body.write(3, volume)
    }

    init(from body: inout BodyReader) throws(WireDecodingError) {
        var text: String?
        var volume: Int?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: text = try body.read()
            case 3: volume = try body.read()
            default: try body.skip()
            }
        }
        self.init(text: try body.required(text, 1), volume: try body.required(volume, 3))
    }
}
