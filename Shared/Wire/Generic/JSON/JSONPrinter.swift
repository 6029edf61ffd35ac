extension JSONValue {
    /// This value as JSON text: compact, or `pretty` with two-space indents and one
    /// member or element a line.
    ///
    /// Strings escape `"`, `\` and control characters and keep all else as UTF-8.
    /// Numbers are written as their text; a `.number` built by hand must hold valid JSON.
    public func serialized(pretty: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        JSONPrinter(pretty: pretty).write(self, level: 0, into: &output)
        return String(decoding: output, as: UTF8.self)
    }
}

/// Writes ``JSONValue``s as UTF-8 text.
struct JSONPrinter {
    let pretty: Bool

    func write(_ value: JSONValue, level: Int, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): Self.writeString(text, into: &output)
        case .array(let elements):
            writeItems(elements, "[", "]", level: level, into: &output) { element, output in
                write(element, level: level + 1, into: &output)
            }
        case .object(let members):
            writeItems(members, "{", "}", level: level, into: &output) { member, output in
                Self.writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, level: level + 1, into: &output)
            }
        }
    }

    /// `items` between `open` and `close`, comma-separated, each written by `item` (on a line of its
    /// own, one level in, when pretty); `open` and `close` side by side when there are none.
    private func writeItems<Items: Collection>(
        _ items: Items, _ open: Unicode.Scalar, _ close: Unicode.Scalar, level: Int, into output: inout [UInt8],
        _ item: (Items.Element, inout [UInt8]) -> Void
    ) {
        output.append(UInt8(ascii: open))
        guard !items.isEmpty else { return output.append(UInt8(ascii: close)) }
        for (index, element) in items.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            newline(level + 1, into: &output)
            item(element, &output)
        }
        newline(level, into: &output)
        output.append(UInt8(ascii: close))
    }

    private func newline(_ level: Int, into output: inout [UInt8]) {
        guard pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
    }

    static func writeString(_ text: String, into output: inout [UInt8]) {
        let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0..<0x20:
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 15)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
