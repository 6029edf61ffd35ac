/// The bounds notifications puts on what it stores, so one sender cannot fill the store or
/// a client's screen. Characters are Swift `Character`s (what a person counts).
public enum Limits {
    /// The longest title.
    public static let title = 200
    /// The longest body.
    public static let body = 4000
    /// The longest deduplication key.
    public static let deduplicationKey = 200
    /// The most notifications one inbox call returns.
    public static let inboxPage = 200
}
