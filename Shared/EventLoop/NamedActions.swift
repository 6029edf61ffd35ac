/// What a state machine answers an event with, as an option set of actions that prints the
/// names of its members (in a failed table test, `[stopReading, flushCorked]`).
package protocol NamedActions: OptionSet, CustomStringConvertible where Element == Self {
    /// Each action and its name, in the order the machine's owner performs them.
    static var names: [(Self, String)] { get }
}

extension NamedActions {
    package var description: String {
        "[" + Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
