import VerticalsSupervisorClient

// What keeps every command of this module to ``Terminal``: the standard library's `print` and
// ServiceKit's `StandardError` are shadowed here by declarations that cannot be called, so a
// command that prints a vertical's words another way does not compile. `OutputRuleTests` reads
// the sources for the qualified ways around (`Swift.print`, `fputs`, …).

/// Unavailable: print through ``Terminal``, which shows a vertical's controls as escapes.
@available(*, unavailable, message: "print through Terminal.print, which shows a vertical's controls as escapes")
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {}

/// Unavailable: write to standard error through ``Terminal/error(_:)``.
enum StandardError {
    @available(*, unavailable, message: "write through Terminal.error, which shows a vertical's controls as escapes")
    static func write(_ text: String) {}
}
