/// Strings written to break out of whatever file they are written into: line ends of every
/// kind, NUL, quotes, shell and systemd expansions, comment starts, YAML's indicators, a
/// generated declaration, and a long run. A value of a manifest or a contract is either refused
/// where it enters, or read back from the file it was written to as exactly itself.
public enum HostileText {
    /// Every hostile string: each piece alone and between two letters, then whole attacks.
    public static let all: [String] = {
        let pieces = [
            "\n", "\r", "\r\n", "\u{0}", "\u{7}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}",
            "\"", "'", "`", "\\", "\\\n", "%", "%H", "%%", "$", "$HOME", "${IFS}", "$$", ";", "#", "&&", "|",
            "-", ":", "?", "{", "}", "[", "]", "&", "*", "!", ">", "@", ",", " ", "\t",
        ]
        var all = pieces.map { "a\($0)b" } + pieces
        all += [
            "\nExecStartPre=+/bin/sh -c \"id > /tmp/owned\"",
            "x;touch${IFS}/tmp/owned;#",
            "x\nRUN touch /tmp/owned\nUSER 0",
            "Echoes a text.\r}\rpublic func owned() {}\rextension Evil {",
            "*/ } public func owned() {} /*",
            "\") ; public func owned() { } ; let x = (\"",
            "- key: value\nother: [1, 2]",
            "&anchor *alias !tag |\n  block",
            "--key=$(VERTICALS_TLS_KEY)", "$$(HOME)",
            "yes", "null", "~", "0x1f", "1e3", ".inf", "",
            String(repeating: "%$\\\"'", count: 400),
        ]
        return all
    }()

    /// The strings' indices, as `@Test(arguments:)` takes them: a failure names the index.
    public static var cases: [Int] { Array(all.indices) }

    /// `text` as a TOML basic string (`"…"`), every control character escaped.
    public static func tomlString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let digits = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
