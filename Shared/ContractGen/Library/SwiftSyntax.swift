/// How the text of a contract is written into the Swift that ``SwiftEmitter`` generates: the
/// one way a doc comment, a string default or a file name reaches it.
///
/// Swift ends a `//` comment at a line feed or a carriage return, so a comment's text never
/// holds a control character: the contract's lexer refuses them, and each left here (tab
/// aside) is written as U+FFFD. A string literal escapes what would end or change it.
///
/// ```swift
/// SwiftSyntax.docComment("Echoes a text.")     // "/// Echoes a text."
/// SwiftSyntax.docComment("a\r}")               // "/// a\u{FFFD}}"
/// SwiftSyntax.stringLiteral("say \"hi\"\n")    // "\"say \\\"hi\\\"\\n\""
/// ```
enum SwiftSyntax {
    /// One `///` line holding `text`.
    static func docComment(_ text: String) -> String {
        text.isEmpty ? "///" : "/// " + commentText(text)
    }

    /// One `//` line holding `text`.
    static func lineComment(_ text: String) -> String {
        "// " + commentText(text)
    }

    /// A Swift string literal of `text`: `\\`, `\"`, `\n`, `\t`, `\r` escaped, and every other
    /// control character (C0, DEL, C1) and the Unicode line separators as `\u{…}`.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if isControl(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `text` with each control character but tab as U+FFFD: nothing in it can end the comment.
    private static func commentText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar != "\t" && isControl(scalar) { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
