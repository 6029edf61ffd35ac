extension MessageSchema {
    /// Throws `invalidValue` naming the first enumeration field, at any depth, whose case in
    /// `body` is not one of its enumeration's cases in this schema.
    ///
    /// The codec keeps a case it does not know (``WireEnum``'s `unknown(raw)`), which is right
    /// for an Output an older reader meets. An Input is different: a case the receiver does not
    /// know cannot be acted on, so the CLI refuses it before sending and a vertical's router
    /// refuses it as `invalidInput`. The message says which cases there are:
    ///
    /// ```text
    /// field "category": "garden" is not a case of shop.Category; its cases: books, music, …
    /// ```
    ///
    /// It reads the bytes in place and builds nothing but the case names it compares, so the
    /// request path pays a scan, not a generic decode. A body that does not decode by this
    /// schema is the decoder's to refuse: such fields are skipped here.
    public func requireKnownEnumerations(inBody body: [UInt8], from start: Int = 0, to end: Int? = nil)
        throws(WireValueError)
    {
        try KnownEnumerationScan(root: name).message(
            self, ByteReader(body, start: start, end: end ?? body.count), path: "", depth: 1)
    }

    /// Whether any field, at any depth, is an enumeration: whether a body of this schema needs
    /// ``requireKnownEnumerations(inBody:from:to:)`` at all.
    public var containsEnumerations: Bool {
        var visited: Set<String> = []
        return Self.containsEnumerations(self, visited: &visited)
    }

    private static func containsEnumerations(_ schema: MessageSchema, visited: inout Set<String>) -> Bool {
        guard visited.insert(schema.name).inserted else { return false }
        for field in schema.fields {
            switch field.type {
            case .enumeration: return true
            case .message(let type) where containsEnumerations(type.schema, visited: &visited): return true
            default: continue
            }
        }
        return false
    }
}

/// Walks a body by its schema for enumeration cases no case name carries.
private struct KnownEnumerationScan {
    let root: String

    func message(_ schema: MessageSchema, _ bytes: ByteReader, path: String, depth: Int) throws(WireValueError) {
        guard depth <= MessageValue.maxNestingDepth else { return }
        var body = BodyReader(bytes)
        // How many elements of each repeated field came so far: an element's index, counted as
        // the scan passes, so naming a path costs the same whatever its place in the body.
        var elements = RepeatedCounts()
        while true {
            let tag: UInt32
            do {
                guard let next = try body.nextTag() else { return }
                tag = next
            } catch { return }
            let field = schema.field(tag: tag)
            let index = field.map { elements.next(of: $0) } ?? 0
            guard let field, body.wireType == .lengthDelimited else {
                do { try body.skip() } catch { return }
                continue
            }
            switch field.type {
            case .enumeration(let enumeration):
                let name: String
                do { name = try String.readValue(from: &body.bytes) } catch { return }
                guard enumeration.cases.contains(name) else {
                    let cases = enumeration.cases.joined(separator: ", ")
                    throw WireValueError(
                        .invalidValue, messageName: root, path: fieldPath(field, index: index, path),
                        reason: "\"\(name)\" is not a case of \(enumeration.name); its cases: \(cases)")
                }
            case .message(let type):
                let nested: ByteReader
                do {
                    let length = try body.bytes.readLength()
                    guard length <= body.bytes.remaining else { return }
                    nested = ByteReader(body.bytes.storage, start: body.bytes.index, end: body.bytes.index + length)
                    body.bytes.index += length
                } catch { return }
                try message(type.schema, nested, path: fieldPath(field, index: index, path), depth: depth + 1)
            default:
                do { try body.skip() } catch { return }
            }
        }
    }

    /// `path.name`, with the element's `index` for a repeated field.
    private func fieldPath(_ field: FieldDescriptor, index: Int, _ path: String) -> String {
        let named = FieldPath.child(path, field.name)
        guard case .repeated = field.presence else { return named }
        return FieldPath.element(named, index)
    }
}

/// Each repeated field's elements seen so far in one message: a short list, since a schema has
/// few repeated fields (nothing is kept for the others, and an empty list allocates nothing).
private struct RepeatedCounts {
    private var counts: [(tag: UInt32, seen: Int)] = []

    /// The index of `field`'s element met now (0 for a field that is not repeated).
    mutating func next(of field: FieldDescriptor) -> Int {
        guard case .repeated = field.presence else { return 0 }
        if let at = counts.firstIndex(where: { $0.tag == field.tag }) {
            counts[at].seen += 1
            return counts[at].seen - 1
        }
        counts.append((field.tag, 1))
        return 0
    }
}
