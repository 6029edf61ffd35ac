// Later versions of echo's messages, as another build of the same contract declares them (the
// schema names kept): vt-testd's VT_TESTD_CONTRACT serves them, and the contract-check tests
// host them. Version 2 adds an optional `note` to the Input and the Output (an additive change);
// the breaking version's Input requires a `volume` earlier callers never send. They stay
// hand-written: each is another version of a message testecho.vcontract declares, under the same
// schema name beside it, and a contract file declares a name once (one build, one version).
import VerticalsWire

extension TestEcho {
    /// `test.EchoInput` of version 2: an optional `note`.
    public struct EchoInputV2: WireMessage {
        public var text: String
        public var delayMilliseconds: Int
        public var note: String?

        public static let schema = MessageSchema(
            "test.EchoInput",
            [
                .required(1, "text", .string),
                .defaulted(2, "delayMilliseconds", .int, .int(0)),
                .optional(3, "note", .string),
            ])

        public init(text: String, delayMilliseconds: Int = 0, note: String? = nil) {
            self.text = text
            self.delayMilliseconds = delayMilliseconds
            self.note = note
        }

        public func encode(to body: inout BodyWriter) {
            body.write(1, text)
            body.write(2, delayMilliseconds)
            body.write(3, note)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
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
    public struct EchoOutputV2: WireMessage {
        public var text: String
        public var servedBy: Int
        public var note: String?

        public static let schema = MessageSchema(
            "test.EchoOutput",
            [.required(1, "text", .string), .required(2, "servedBy", .int), .optional(3, "note", .string)])

        public init(text: String, servedBy: Int, note: String? = nil) {
            self.text = text
            self.servedBy = servedBy
            self.note = note
        }

        public func encode(to body: inout BodyWriter) {
            body.write(1, text)
            body.write(2, servedBy)
            body.write(3, note)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
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
    public struct EchoInputBreaking: WireMessage {
        public var text: String
        public var volume: Int

        public static let schema = MessageSchema(
            "test.EchoInput",
            [
                .required(1, "text", .string),
                .defaulted(2, "delayMilliseconds", .int, .int(0)),
                .required(3, "volume", .int),
            ])

        public init(text: String, volume: Int) {
            self.text = text
            self.volume = volume
        }

        public func encode(to body: inout BodyWriter) {
            body.write(1, text)
            body.write(3, volume)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
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
}
