/// The bounds notifications puts on what it stores, so one sender cannot fill the store or
/// a client's screen. Characters are Swift `Character`s (what a person counts).
package enum Limits {
    /// The longest title.
    package static let title = 200
    /// The longest body.
    package static let body = 4000
    /// The longest deduplication key.
    package static let deduplicationKey = 200
    /// The most notifications one inbox call returns.
    package static let inboxPage = 200
}
