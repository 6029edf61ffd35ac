/// A message for a person, in which what the code wrote stays as written and every value put
/// into it shows through ``VisibleText``: the one way the CLI composes what it prints.
///
/// A string literal is the code's own text; each interpolated value (a vertical's error message,
/// a log line, a name, a number) is made visible, so a newline or an escape sequence in it cannot
/// start a line or steer the terminal. A `String` held in a variable is not a `TerminalText`:
/// the compiler makes every printed value pass through an interpolation.
///
/// ```swift
/// let message: TerminalText = "\(operation) failed: \(error.message)"
/// ```
package struct TerminalText: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable, Equatable {
    /// What the terminal shows.
    package private(set) var visible: String

    /// The text shown, as it is printed.
    package var description: String { visible }

    /// The code's own text.
    package init(stringLiteral value: String) {
        visible = value
    }

    /// A literal with values in it.
    package init(stringInterpolation: StringInterpolation) {
        visible = stringInterpolation.visible
    }

    /// `lines`, one after another, each on its own line.
    package init(lines: [TerminalText]) {
        visible = lines.map(\.visible).joined(separator: "\n")
    }

    /// Builds a ``TerminalText``: literals as written, values made visible.
    package struct StringInterpolation: StringInterpolationProtocol {
        var visible = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            visible.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// The code's own text, as written.
        package mutating func appendLiteral(_ literal: String) {
            visible += literal
        }

        /// Text already composed for the terminal, as it is.
        package mutating func appendInterpolation(_ text: TerminalText) {
            visible += text.visible
        }

        /// Any value, as `String(describing:)` says it, made visible.
        package mutating func appendInterpolation<Value>(_ value: Value) {
            visible += VisibleText.of(String(describing: value))
        }
    }

    /// `left`, then `right`.
    package static func + (left: TerminalText, right: TerminalText) -> TerminalText {
        var joined = left
        joined.visible += right.visible
        return joined
    }

    /// Appends `right`.
    package static func += (left: inout TerminalText, right: TerminalText) {
        left.visible += right.visible
    }
}
