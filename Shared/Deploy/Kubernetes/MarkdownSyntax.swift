/// How values are written into the exported `README.md`: the one way a manifest's value
/// reaches it. A value is an inline code span (CommonMark 6.1), so that no character of it is
/// read as emphasis, a link, HTML or a heading, and safe in a table cell (GitHub's tables).
///
/// ```swift
/// MarkdownSyntax.code("svc-identity")  // "`svc-identity`"
/// MarkdownSyntax.code("a`b|c")         // "``a`b\|c``"
/// ```
enum MarkdownSyntax {
    /// `texts` as code spans (``code(_:)`` of each), separated by commas.
    static func codeList(_ texts: [String]) -> String {
        texts.map(code).joined(separator: ", ")
    }

    /// `text` as an inline code span: fenced by one backtick more than its longest run of them,
    /// padded with a space when it starts or ends with one, `|` as `\|` (a table would split the
    /// cell there otherwise), and each control character, which would end the line or the span,
    /// as U+FFFD.
    static func code(_ text: String) -> String {
        var body = ""
        var run = 0
        var longest = 0
        for scalar in text.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = max(longest, run)
            if scalar == "|" {
                body += "\\|"
            } else if scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) || scalar.value == 0x2028
                || scalar.value == 0x2029
            {
                body += "\u{FFFD}"
            } else {
                body.unicodeScalars.append(scalar)
            }
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = body.hasPrefix("`") || body.hasSuffix("`") ? " \(body) " : body
        return fence + padded + fence
    }
}
