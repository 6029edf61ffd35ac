import VerticalsWire

// Messages used only by the Wire tests: one with a field of every type, and the
// small enumerations and nested messages it needs.

/// A colour, to exercise enumerations.
enum Colour: WireEnum {
    case red, green, blue
    case unknown(String)

    static let knownCases: [Colour] = [.red, .green, .blue]
    static let schema = EnumSchema("test.Colour", knownCases)
    init(unknown raw: String) { self = .unknown(raw) }
    var wireName: String {
        switch self {
        case .red: "red"
        case .green: "green"
        case .blue: "blue"
        case .unknown(let raw): raw
        }
    }
}

/// A nested message with a required and a defaulted field.
struct Inner: WireMessage, Hashable {
    var name: String
    var value: Int = 0

    static let schema = MessageSchema(
        "test.Inner", [.required(1, "name", .string), .defaulted(2, "value", .int, .int(0))])

    init(name: String, value: Int = 0) {
        self.name = name
        self.value = value
    }

    func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, value)
    }

    init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var value = 0
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: value = try body.read()
            default: try body.skip()
            }
        }
        self.init(name: try body.required(name, 1), value: value)
    }
}

/// A message with a field of every type and every presence.
struct Sample: WireMessage {
    var flag: Bool
    var count: Int64
    var size: UInt64
    var ratio: Double
    var title: String
    var blob: [UInt8]
    var at: Timestamp
    var colour: Colour
    var inner: Inner?
    var tags: [String]
    var items: [Inner]
    var note: String?
    var level: Int

    static let schema = MessageSchema(
        "test.Sample",
        [
            .required(1, "flag", .bool),
            .required(2, "count", .int),
            .required(3, "size", .uint),
            .required(4, "ratio", .double),
            .required(5, "title", .string),
            .required(6, "blob", .bytes),
            .required(7, "at", .timestamp),
            .required(8, "colour", .enumeration(Colour.schema)),
            .optional(9, "inner", .message(Inner.self)),
            .repeated(10, "tags", .string),
            .repeated(11, "items", .message(Inner.self)),
            .optional(12, "note", .string),
            .defaulted(13, "level", .int, .int(3)),
        ])

    init(
        flag: Bool = true, count: Int64 = -42, size: UInt64 = 300, ratio: Double = 0.25, title: String = "héllo",
        blob: [UInt8] = [0, 1, 254, 255], at: Timestamp = Timestamp(secondsSinceEpoch: 1_795_426_200),
        colour: Colour = .green, inner: Inner? = Inner(name: "in", value: -1), tags: [String] = ["a", "", "c"],
        items: [Inner] = [Inner(name: "x"), Inner(name: "y", value: 7)], note: String? = "a note", level: Int = 9
    ) {
        self.flag = flag
        self.count = count
        self.size = size
        self.ratio = ratio
        self.title = title
        self.blob = blob
        self.at = at
        self.colour = colour
        self.inner = inner
        self.tags = tags
        self.items = items
        self.note = note
        self.level = level
    }

    /// Every optional field absent, every list empty, every default left.
    static let minimal = Sample(
        flag: false, count: 0, size: 0, ratio: 0, title: "", blob: [], at: .epoch, colour: .red, inner: nil,
        tags: [], items: [], note: nil, level: 3)

    func encode(to body: inout BodyWriter) {
        body.write(1, flag)
        body.write(2, count)
        body.write(3, size)
        body.write(4, ratio)
        body.write(5, title)
        body.write(6, blob)
        body.write(7, at)
        body.write(8, colour)
        body.write(9, inner)
        body.write(10, tags)
        body.write(11, items)
        body.write(12, note)
        body.write(13, level)
    }

    init(from body: inout BodyReader) throws(WireDecodingError) {
        var flag: Bool?
        var count: Int64?
        var size: UInt64?
        var ratio: Double?
        var title: String?
        var blob: [UInt8]?
        var at: Timestamp?
        var colour: Colour?
        var inner: Inner?
        var tags: [String] = []
        var items: [Inner] = []
        var note: String?
        var level = 3
        while let tag = try body.nextTag() {
            switch tag {
            case 1: flag = try body.read()
            case 2: count = try body.read()
            case 3: size = try body.read()
            case 4: ratio = try body.read()
            case 5: title = try body.read()
            case 6: blob = try body.read()
            case 7: at = try body.read()
            case 8: colour = try body.read()
            case 9: inner = try body.read()
            case 10: try body.append(to: &tags)
            case 11: try body.append(to: &items)
            case 12: note = try body.read()
            case 13: level = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            flag: try body.required(flag, 1), count: try body.required(count, 2), size: try body.required(size, 3),
            ratio: try body.required(ratio, 4), title: try body.required(title, 5), blob: try body.required(blob, 6),
            at: try body.required(at, 7), colour: try body.required(colour, 8), inner: inner, tags: tags,
            items: items, note: note, level: level)
    }
}

/// A message that nests itself, to test how deep decoders let bodies go.
struct Node: WireMessage {
    var children: [Node]

    static let schema = MessageSchema("test.Node", [.repeated(1, "children", .message(Node.self))])

    init(children: [Node] = []) {
        self.children = children
    }

    func encode(to body: inout BodyWriter) {
        body.write(1, children)
    }

    init(from body: inout BodyReader) throws(WireDecodingError) {
        var children: [Node] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: children.append(try body.read())
            default: try body.skip()
            }
        }
        self.init(children: children)
    }

    /// The body of a chain `depth` children deep, each node the only child of the one before.
    static func chainBody(depth: Int) -> [UInt8] {
        // sizes[k]: the body length of a node with k levels below it.
        var sizes = [0]
        for level in 1...max(depth, 1) {
            let inner = sizes[level - 1]
            sizes.append(1 + Varint.length(of: UInt64(inner)) + inner)
        }
        var writer = ByteWriter(capacity: sizes[depth])
        for level in stride(from: depth, to: 0, by: -1) {
            writer.writeVarint(1 << 3 | 2)
            writer.writeVarint(UInt64(sizes[level - 1]))
        }
        return writer.bytes
    }
}
