import Glibc
import VerticalsClient
import VerticalsSupervisorClient

/// The one printer of both programs: everything `svc-supervisor` and `svc-supervisor-engine`
/// write to standard output and standard error goes through it, as a ``TerminalText`` (values
/// shown through ``VisibleText``), a JSON document, or a log line. Only ``raw(_:)``, which
/// `--raw` chooses, passes a vertical's bytes as they are.
///
/// The module's own `print` and `StandardError` are unavailable (``print(_:separator:terminator:)``
/// in `OutputRule.swift`), so the compiler holds every command to this printer.
package enum Terminal {
    /// Prints `text` on standard output, then `terminator` (a newline).
    package static func print(_ text: TerminalText, terminator: TerminalText = "\n") {
        write((text + terminator).visible)
    }

    /// Prints `text`, all of it shown through ``VisibleText`` (a newline in it included), and a newline.
    @_disfavoredOverload
    package static func print(_ text: String) {
        print("\(text)")
    }

    /// Prints each of `lines` on standard output, each ended by a newline.
    package static func print(lines: [TerminalText]) {
        for line in lines { print(line) }
    }

    /// Prints `text` and a newline on standard error.
    package static func error(_ text: TerminalText) {
        VerticalsClient.StandardError.write((text + "\n").visible)
    }

    /// Prints `text`, all of it shown through ``VisibleText``, and a newline on standard error.
    @_disfavoredOverload
    package static func error(_ text: String) {
        error("\(text)")
    }

    /// Prints `text` on standard error with no newline (a prompt).
    package static func prompt(_ text: TerminalText) {
        VerticalsClient.StandardError.write(text.visible)
    }

    /// Prints a JSON document (one of ours, from the contract's codec) on standard output: its
    /// line breaks stay, and a character that would steer a terminal shows as JSON's `\uXXXX`,
    /// which is valid inside a JSON string, so a program reading the output reads the same values.
    package static func json(_ document: String) {
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            write(VisibleText.of(line, style: .json) + "\n")
        }
    }

    /// Prints one line a vertical wrote (without its newline) and a newline: shown through
    /// ``VisibleText``, or, with `raw`, its bytes as they are.
    package static func logLine(_ bytes: some Collection<UInt8>, raw: Bool) {
        if raw {
            self.raw(Array(bytes) + [UInt8(ascii: "\n")])
        } else {
            write(VisibleText.of(bytes: bytes) + "\n")
        }
    }

    /// Writes `bytes` to standard output as they are: for `--raw`, which asks for a vertical's own bytes.
    package static func raw(_ bytes: [UInt8]) {
        flush() // what was printed before comes first
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Flushes standard output (a following command's lines come as they are printed).
    package static func flush() {
        fflush(nil)
    }

    /// Writes `text` to standard output (buffered, as `print` is).
    private static func write(_ text: String) {
        Swift.print(text, terminator: "")
    }
}
