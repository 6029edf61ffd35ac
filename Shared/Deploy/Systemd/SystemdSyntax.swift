import VerticalsWire

/// How values are written so that systemd reads them back exactly: time spans, quoted
/// command lines and environment assignments (systemd.syntax(7), systemd.service(5)).
enum SystemdSyntax {
    /// A time span systemd parses: whole seconds as `"30s"`, else milliseconds (`"100ms"`),
    /// else microseconds (`"250us"`).
    static func timeSpan(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        if microseconds % 1_000_000 == 0 { return "\(microseconds / 1_000_000)s" }
        if microseconds % 1_000 == 0 { return "\(microseconds / 1_000)ms" }
        return "\(microseconds)us"
    }

    /// One word of an `ExecStart=` line: bare when it holds only safe characters, else
    /// double-quoted with `\`, `"` escaped; `%` (specifiers) and `$` (variables) are doubled
    /// in both forms so systemd passes them through literally.
    static func commandWord(_ word: String) -> String {
        let literal = word.replacingAll("%", with: "%%").replacingAll("$", with: "$$")
        if !word.isEmpty && word.unicodeScalars.allSatisfy(isBare) { return literal }
        return doubleQuoted(literal)
    }

    /// `"KEY=value"` for `Environment=`, quoted and escaped; `%` is doubled (Environment=
    /// expands specifiers, not variables).
    static func environmentAssignment(_ key: String, _ value: String) -> String {
        doubleQuoted("\(key)=\(value)".replacingAll("%", with: "%%"))
    }

    /// `"KEY=%d/FILE"` for `Environment=`: the file `FILE` of the unit's credentials folder
    /// (`LoadCredential=`), the one specifier written unescaped.
    static func credentialAssignment(_ key: String, _ file: String) -> String {
        doubleQuoted("\(key)=%d/\(file.replacingAll("%", with: "%%"))")
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "/._-+:=,@%$".unicodeScalars.contains(scalar)
    }
}

extension String {
    /// Every `target` replaced by `replacement`, scalar by scalar.
    fileprivate func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar == target { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
