/// A problem in a contract file, at a place in it.
///
/// ``description`` is `file:line:col: error: message`, the form SwiftPM and Xcode show as a
/// diagnostic on that line, so a mistake in a `.vcontract` file is reported like a compile error.
///
/// It has the framework's error shape without taking it from VerticalsWire (the generator depends
/// on no other module): a ``code`` a program switches on, the ``message``, and ``details`` (`path`,
/// `line`, `column`).
public struct ContractDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is; its raw value is the code's name, as `ErrorKind` prints it.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The text is not the contract language: a token or declaration where another was due.
        case syntax
        /// The file reads, but a declaration breaks a rule: a name, tag, type, default, bound or doc.
        case invalidDeclaration
    }

    /// What kind of problem it is.
    public var code: Code
    /// The contract file's path.
    public var path: String
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, and where it helps, what to write instead.
    public var message: String

    /// Creates a diagnostic of `code` (by default a broken rule).
    public init(_ code: Code = .invalidDeclaration, path: String, location: SourceLocation, message: String) {
        self.code = code
        self.path = path
        self.location = location
        self.message = message
    }

    /// The file's path and the place, as the details `path`, `line` and `column`.
    public var details: [(key: String, value: String)] {
        [("path", path), ("line", String(location.line)), ("column", String(location.column))]
    }

    public var description: String { "\(path):\(location.line):\(location.column): error: \(message)" }
}
