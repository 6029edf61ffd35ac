/// The three edits a new vertical makes to files that already exist: its targets in
/// Package.swift, its contract in `Contracts.all`, its service in the manifest. Pure text in,
/// text out, so a refusal changes nothing and the edits are tested without a checkout.
enum CheckoutEdits {
    /// Package.swift with `+ vertical("<Name>")` after the last `+ vertical(…)` call, which may
    /// span several lines (as `swift format` wraps a long one).
    static func package(_ text: String, adding v: VerticalName) throws(ScaffoldError) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let last = lines.lastIndex(where: { $0.trimmingLeadingSpaces().hasPrefix("+ vertical(") }),
            let end = callEnd(in: lines, from: last)
        else {
            throw .checkout("Package.swift has no `+ vertical(\"Name\")` line to add \(v.typeName)'s targets after")
        }
        let indent = String(lines[last].prefix { $0 == " " })
        lines.insert("\(indent)+ vertical(\"\(v.typeName)\")", at: end + 1)
        return lines.joined(separator: "\n")
    }

    /// The index of the line where the call opened on line `start` closes its parentheses
    /// (those inside string literals not counted), or nil when it never does.
    private static func callEnd(in lines: [String], from start: Int) -> Int? {
        var depth = 0
        for index in start..<lines.count {
            var inString = false
            var escaped = false
            for character in lines[index] {
                if inString {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        inString = false
                    }
                    continue
                }
                switch character {
                case "\"": inString = true
                case "(": depth += 1
                case ")": depth -= 1
                default: break
                }
            }
            if depth <= 0 { return index }
        }
        return nil
    }

    /// The contract list with `<Name>.self` appended to `Contracts.all`.
    static func contracts(_ text: String, adding v: VerticalName, in path: String) throws(ScaffoldError) -> String {
        let marker = ProductLayout.contractListMarker
        guard let start = text.firstRange(of: marker), let close = text[start.upperBound...].firstIndex(of: "]") else {
            throw .checkout("\(path) has no `\(marker)…]` list")
        }
        let listed = text[start.upperBound..<close].trimmingTrailingSpace()
        let separator = listed.hasSuffix(",") || listed.isEmpty ? " " : ", "
        return String(text[..<start.upperBound]) + listed + separator + "\(v.typeName).self" + String(text[close...])
    }

    /// The codec examples' `Fixtures.all` (IOInterfaceTests here) with the vertical's list added
    /// at the end of its line `].flatMap { $0 }`, whether or not other lists are added there already.
    static func examples(_ text: String, adding v: VerticalName, in path: String) throws(ScaffoldError) -> String {
        let list = "static let all: [Example] = ["
        let close = "].flatMap { $0 }"
        guard let start = text.firstRange(of: list), let end = text[start.upperBound...].firstRange(of: close),
            let lineEnd = text[end.upperBound...].firstIndex(of: "\n")
        else {
            throw .checkout("\(path) has no `\(list) … \(close)` list in `Fixtures`")
        }
        return String(text[..<lineEnd]) + " + \(v.name)" + String(text[lineEnd...])
    }

    /// The manifest with a `[services.<name>]` table appended.
    static func manifest(_ text: String, adding v: VerticalName, calls: [VerticalName]) -> String {
        let entry = Template.manifestEntry.render(Template.values(of: v, calls: calls, interface: ""))
        return text + (text.hasSuffix("\n") ? "" : "\n") + "\n" + entry
    }
}

extension StringProtocol {
    /// The text without its leading spaces.
    func trimmingLeadingSpaces() -> SubSequence {
        drop { $0 == " " }
    }
}

extension Substring {
    /// The text without trailing spaces and newlines.
    func trimmingTrailingSpace() -> String {
        var text = self
        while let last = text.last, last == " " || last == "\n" { text.removeLast() }
        return String(text)
    }
}
