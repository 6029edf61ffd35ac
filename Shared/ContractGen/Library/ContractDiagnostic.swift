/// A problem in a contract file, at a place in it.
///
/// ``description`` is `file:line:col: error: message`, the form SwiftPM and Xcode show as a
/// diagnostic on that line, so a mistake in a `.vcontract` file is reported like a compile error.
public struct ContractDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    /// The contract file's path.
    public var path: String
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, and where it helps, what to write instead.
    public var message: String

    /// Creates a diagnostic.
    public init(path: String, location: SourceLocation, message: String) {
        self.path = path
        self.location = location
        self.message = message
    }

    public var description: String { "\(path):\(location.line):\(location.column): error: \(message)" }
}
