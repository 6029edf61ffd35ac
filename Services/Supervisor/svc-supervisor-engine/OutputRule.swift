// This program prints through ``Terminal`` (VerticalsSupervisorCommands) alone, as the commands
// it shares with svc-supervisor do: the standard library's `print` and ServiceKit's
// `StandardError` are shadowed here by declarations that cannot be called (a shadow holds in its
// own module only, so each program has one).

/// Unavailable: print through ``Terminal``, which shows a vertical's controls as escapes.
@available(*, unavailable, message: "print through Terminal.print, which shows a vertical's controls as escapes")
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {}

/// Unavailable: write to standard error through `Terminal.error`.
enum StandardError {
    @available(*, unavailable, message: "write through Terminal.error, which shows a vertical's controls as escapes")
    static func write(_ text: String) {}
}
