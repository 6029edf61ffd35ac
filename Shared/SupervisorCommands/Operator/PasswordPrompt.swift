import Glibc
import VerticalsClient

/// Reads a password: on a terminal, after a prompt with echo off (restored whatever happens);
/// otherwise the first line of standard input, so scripts can pipe it in
/// (`printf '%s\n' "$PW" | svc-supervisor admin create ada@example.org`).
enum PasswordPrompt {
    /// The password without its line ending; a ``CLIError`` (exit 64) when none was given.
    static func read(prompt: String) throws(CLIError) -> String {
        let line: String?
        if isatty(0) == 1 {
            var saved = termios()
            tcgetattr(0, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSAFLUSH, &quiet)
            Terminal.prompt("\(prompt)")
            line = readLine(strippingNewline: true)
            tcsetattr(0, TCSAFLUSH, &saved)
            Terminal.prompt("\n")
        } else {
            line = readLine(strippingNewline: true)
        }
        guard let line, !line.isEmpty else { throw CLIError(.invalidInput, status: 64, "no password given") }
        return line
    }
}
