import VerticalsSupervisorClient

/// A failure the CLI reports on standard error with its own exit status. Its message is a
/// ``TerminalText``: a vertical's words in it show their controls as escapes.
package struct CLIError: Error, CustomStringConvertible {
    package let status: Int32
    /// The message as the terminal shows it.
    package let message: TerminalText

    package init(status: Int32, _ message: TerminalText) {
        self.status = status
        self.message = message
    }

    /// A message composed as a `String` (with `+`): all of it is shown through ``VisibleText``,
    /// a newline in it included, since nothing tells the code's text from a vertical's.
    @_disfavoredOverload
    package init(status: Int32, _ message: String) {
        self.init(status: status, "\(message)")
    }

    /// The message as printed.
    package var description: String { message.visible }
}
