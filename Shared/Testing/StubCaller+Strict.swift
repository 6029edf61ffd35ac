import Testing
import VerticalsServiceKit

extension StubCaller {
    /// A stub caller that fails the test when asked an operation the test did not stub: it
    /// records an issue naming the call (`unexpected call identity.authenticate(…)`) at the line
    /// that made the caller, and throws `unimplemented`. So a use case that
    /// swallows the error (a best-effort call with a fallback) cannot hide a missing stub.
    ///
    /// ```swift
    /// let caller = StubCaller().on(Identity.authenticate) { _ in .fixture() }
    /// ```
    ///
    /// (Plain `#fileID`/`#line` defaults rather than `#_sourceLocation`, a macro that would make
    /// every file writing `StubCaller()` import Testing.)
    public convenience init(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        self.init(onUnexpectedCall: { call in
            Issue.record("unexpected call \(call)", sourceLocation: sourceLocation)
        })
    }
}
