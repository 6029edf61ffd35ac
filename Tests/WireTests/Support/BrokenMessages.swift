import VerticalsWire

/// Messages whose direct codec disagrees with their schema, each in one way, to prove
/// that `SchemaConformance` finds and names every kind of disagreement.
enum Broken {
    /// Writes `secondary` under `primary`'s tag and back: every round trip passes.
    struct SwappedTags: WireMessage {
        var primary: String
        var secondary: String
        static let schema = MessageSchema(
            "test.SwappedTags", [.required(1, "primary", .string), .required(2, "secondary", .string)])
        init(primary: String, secondary: String) {
            self.primary = primary
            self.secondary = secondary
        }
        func encode(to body: inout BodyWriter) {
            body.write(1, secondary)
            body.write(2, primary)
        }
        init(from body: inout BodyReader) throws(WireDecodingError) {
            var primary = ""
            var secondary = ""
            while let tag = try body.nextTag() {
                switch tag {
                case 1: secondary = try body.read()
                case 2: primary = try body.read()
                default: try body.skip()
                }
            }
            self.init(primary: primary, secondary: secondary)
        }
    }

    /// Writes its fields in another order than the schema's.
    struct OutOfOrder: WireMessage {
        var a: String
        var b: String
        static let schema = MessageSchema("test.OutOfOrder", [.required(1, "a", .string), .required(2, "b", .string)])
        init(a: String, b: String) {
            self.a = a
            self.b = b
        }
        func encode(to body: inout BodyWriter) {
            body.write(2, b)
            body.write(1, a)
        }
        init(from body: inout BodyReader) throws(WireDecodingError) {
            var a = ""
            var b = ""
            while let tag = try body.nextTag() {
                switch tag {
                case 1: a = try body.read()
                case 2: b = try body.read()
                default: try body.skip()
                }
            }
            self.init(a: a, b: b)
        }
    }

    /// Leaves a defaulted field out when it holds its default.
    struct OmitsDefault: WireMessage {
        var limit: Int
        static let schema = MessageSchema("test.OmitsDefault", [.defaulted(1, "limit", .int, .int(20))])
        init(limit: Int) { self.limit = limit }
        func encode(to body: inout BodyWriter) {
            if limit != 20 { body.write(1, limit) }
        }
        init(from body: inout BodyReader) throws(WireDecodingError) {
            self.init(limit: try body.firstField(else: 20))
        }
    }

    /// Writes a tag its schema does not declare.
    struct ExtraTag: WireMessage {
        var name: String
        static let schema = MessageSchema("test.ExtraTag", [.required(1, "name", .string)])
        init(name: String) { self.name = name }
        func encode(to body: inout BodyWriter) {
            body.write(1, name)
            body.write(9, true)
        }
        init(from body: inout BodyReader) throws(WireDecodingError) {
            self.init(name: try body.firstField(else: ""))
        }
    }

    /// Writes a double where its schema says int.
    struct WrongWireType: WireMessage {
        var value: Double
        static let schema = MessageSchema("test.WrongWireType", [.required(1, "value", .int)])
        init(value: Double) { self.value = value }
        func encode(to body: inout BodyWriter) { body.write(1, value) }
        init(from body: inout BodyReader) throws(WireDecodingError) {
            self.init(value: try body.firstField(else: 0.0))
        }
    }

    /// Writes a ZigZag `Int` where its schema says `uint`: the bytes round-trip, the numbers do not.
    struct SignMixup: WireMessage {
        var count: Int
        static let schema = MessageSchema("test.SignMixup", [.required(1, "count", .uint)])
        init(count: Int) { self.count = count }
        func encode(to body: inout BodyWriter) { body.write(1, count) }
        init(from body: inout BodyReader) throws(WireDecodingError) {
            self.init(count: try body.firstField(else: 0))
        }
    }

    /// Names its property otherwise than its schema's field.
    struct Renamed: WireMessage {
        var title: String
        static let schema = MessageSchema("test.Renamed", [.required(1, "name", .string)])
        init(title: String) { self.title = title }
        func encode(to body: inout BodyWriter) { body.write(1, title) }
        init(from body: inout BodyReader) throws(WireDecodingError) {
            self.init(title: try body.firstField(else: ""))
        }
    }

    /// Writes an optional field but never reads it back.
    struct ForgetfulDecoder: WireMessage {
        var name: String
        var note: String?
        static let schema = MessageSchema(
            "test.ForgetfulDecoder", [.required(1, "name", .string), .optional(2, "note", .string)])
        init(name: String, note: String?) {
            self.name = name
            self.note = note
        }
        func encode(to body: inout BodyWriter) {
            body.write(1, name)
            body.write(2, note)
        }
        init(from body: inout BodyReader) throws(WireDecodingError) {
            self.init(name: try body.firstField(else: ""), note: nil)
        }
    }
}

extension BodyReader {
    /// The value of field 1, or `fallback` when the body has none; every other field is skipped:
    /// the whole decoder of a message with one field (or one it reads back).
    fileprivate mutating func firstField<Value: WireField>(else fallback: Value) throws(WireDecodingError) -> Value {
        var value = fallback
        while let tag = try nextTag() {
            if tag == 1 { value = try read() } else { try skip() }
        }
        return value
    }
}
