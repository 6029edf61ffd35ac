/// What went wrong in an error of `Domain`: a name to compare and print, declared by the
/// error's module as static members of a constrained extension, so a new kind is an addition
/// that breaks no caller's `switch` or `==`.
///
/// An error type names it as its `Code` (or `Kind`), and callers compare with the static members:
///
/// ```swift
/// extension ErrorKind where Domain == SocketEndpointError {
///     /// Neither `unix:` nor `tcp:`.
///     public static var unknownScheme: Self { Self("unknownScheme") }
/// }
///
/// catch let error as SocketEndpointError where error.code == .unknownScheme { … }
/// ```
public struct ErrorKind<Domain>: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    /// The kind called `name`, which is also how it prints; only the framework declares kinds.
    package init(_ name: String) { self.name = name }

    /// The kind's name, e.g. `unknownScheme`.
    public var description: String { name }
}
