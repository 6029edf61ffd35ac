import IOInterface
import Wire

/// Decodes bodies by a ``Daemon/Description``'s field tables instead of compiled types: it
/// plays a previous contract version's reader, so today's bytes can be checked against
/// what a peer built from that version expects (forward compatibility).
///
/// It reads as that peer's decoder would: unknown tags skipped, each known field's wire
/// type checked, required fields demanded. Values come out as ``MessageValue``s by tag,
/// comparable with today's generic decoding of the same bytes.
public struct DescribedDecoder {
    let messages: [String: Daemon.MessageInfo]

    /// A decoder for the messages of `description`.
    public init(_ description: Daemon.Description) {
        messages = Dictionary(description.messages.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Decodes `bytes` as message `name` of the description; errors name the field path.
    public func decode(_ bytes: [UInt8], as name: String) throws(DescribedDecodingError) -> MessageValue {
        try message(name, ByteReader(bytes, start: 0, end: bytes.count), path: name, depth: 0)
    }

    private func message(_ name: String, _ bytes: ByteReader, path: String, depth: Int)
        throws(DescribedDecodingError) -> MessageValue
    {
        guard let info = messages[name] else { throw DescribedDecodingError(path: path, problem: "no field table") }
        guard depth < MessageValue.maxNestingDepth else { throw DescribedDecodingError(path: path, problem: "too deep") }
        var body = BodyReader(bytes)
        var value = MessageValue()
        do {
            while let tag = try body.nextTag() {
                guard let field = info.fields.first(where: { UInt64($0.tag) == UInt64(tag) }) else {
                    try body.skip()
                    continue
                }
                let fieldPath = "\(path).\(field.name)"
                let read = try single(field.type, &body, path: fieldPath, depth: depth)
                if field.presence == .repeated {
                    var list: [WireValue] = []
                    if case .list(let existing)? = value[tag] { list = existing }
                    value[tag] = .list(list + [read])
                } else {
                    value[tag] = read
                }
            }
        } catch let error as DescribedDecodingError {
            throw error
        } catch {
            throw DescribedDecodingError(path: path, problem: "\(error)")
        }
        for field in info.fields where field.presence == .required && value[UInt32(field.tag)] == nil {
            throw DescribedDecodingError(path: "\(path).\(field.name)", problem: "required field is missing")
        }
        return value
    }

    private func single(_ type: String, _ body: inout BodyReader, path: String, depth: Int) throws -> WireValue {
        func expect(_ wireType: WireType) throws {
            guard body.wireType == wireType else {
                throw DescribedDecodingError(
                    path: path, problem: "expected \(type) (wire type \(wireType)), found wire type \(body.wireType)")
            }
        }
        switch type {
        case "bool": try expect(.varint); return .bool(try body.read(Bool.self))
        case "int": try expect(.varint); return .int(try body.read(Int64.self))
        case "uint": try expect(.varint); return .uint(try body.read(UInt64.self))
        case "timestamp": try expect(.varint); return .timestamp(try body.read(Timestamp.self))
        case "double": try expect(.fixed64); return .double(try body.read(Double.self))
        case "string": try expect(.lengthDelimited); return .string(try body.read(String.self))
        case "bytes": try expect(.lengthDelimited); return .bytes(try body.read([UInt8].self))
        default:
            try expect(.lengthDelimited)
            if type.hasPrefix("enum ") { return .enumeration(try body.read(String.self)) }
            guard type.hasPrefix("message ") else {
                throw DescribedDecodingError(path: path, problem: "unknown type `\(type)`")
            }
            let nested = try body.read([UInt8].self)
            return .message(
                try message(String(type.dropFirst("message ".count)), ByteReader(nested, start: 0, end: nested.count),
                    path: path, depth: depth + 1))
        }
    }
}

/// Bytes a described reader refuses, with the field path.
public struct DescribedDecodingError: Error, CustomStringConvertible {
    /// e.g. `clinics.Clinic.hours.opens`.
    public let path: String
    /// What is wrong.
    public let problem: String

    public var description: String { "\(path): \(problem)" }
}

/// Whether every field an older reader sees (`old`) holds the same value in today's
/// reading of the same bytes (`new`), recursing into nested messages and lists of them.
public enum ValueSubset {
    /// The path of the first field that differs, or nil when `old` ⊆ `new`.
    public static func firstDifference(old: MessageValue, new: MessageValue, path: String) -> String? {
        for field in old.fields {
            let fieldPath = "\(path)#\(field.tag)"
            guard let current = new[field.tag] else { return "\(fieldPath): absent today" }
            if let found = difference(field.value, current, path: fieldPath) { return found }
        }
        return nil
    }

    private static func difference(_ old: WireValue, _ new: WireValue, path: String) -> String? {
        switch (old, new) {
        case (.message(let x), .message(let y)):
            return firstDifference(old: x, new: y, path: path)
        case (.list(let xs), .list(let ys)):
            guard xs.count == ys.count else { return "\(path): \(xs.count) elements, \(ys.count) today" }
            for (index, (x, y)) in zip(xs, ys).enumerated() {
                if let found = difference(x, y, path: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return old == new ? nil : "\(path): \(old) read as \(new) today"
        }
    }
}
