/// `text` in double quotes, with backslash, quote, newline, tab and carriage return written as
/// the escapes systemd (systemd.syntax(7)), YAML's double-quoted style and logfmt all read back:
/// `\\`, `\"`, `\n`, `\t`, `\r`. Every other scalar goes through `otherScalar`, the syntax's
/// control-character policy: it returns the scalar's escape, or nil to write it as it is.
package func doubleQuoted(_ text: String, otherScalar escape: (Unicode.Scalar) -> String? = { _ in nil }) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
            if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out + "\""
}
