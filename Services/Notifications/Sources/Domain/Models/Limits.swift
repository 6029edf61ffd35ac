/// The bounds notifications puts on what it stores, so one sender cannot fill the store or
/// a client's screen. Characters are Swift `Character`s (what a person counts); bytes are
/// UTF-8, checked first (one character may carry any number of combining marks), and are the
/// contract's bounds.
package enum Limits {
    /// The most bytes of a title and of a deduplication key.
    package static let titleBytes = 4096
    /// The most bytes of a body.
    package static let bodyBytes = 16_384
    /// The longest title.
    package static let title = 200
    /// The longest body.
    package static let body = 4000
    /// The longest deduplication key.
    package static let deduplicationKey = 200
    /// The most notifications one inbox call returns.
    package static let inboxPage = 200
}
