import VerticalsManifest
import VerticalsWire

/// How values are written so that systemd reads them back exactly: time spans, quoted
/// command lines and environment assignments, credential paths, and the fields of tmpfiles.d
/// and sysusers.d lines (systemd.syntax(7), systemd.service(5), tmpfiles.d(5), sysusers.d(5)).
///
/// The one way a value of a manifest reaches a unit: quoted by ``quoted(_:)`` (no raw control
/// character, so no line of its own and no continuation), with `%` doubled where systemd
/// expands specifiers, or refused (``credentialPath(_:_:_:)``) where systemd reads the rest
/// of the line as it is.
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
        return quoted(literal)
    }

    /// `"KEY=value"` for `Environment=`, quoted and escaped; `%` is doubled (Environment=
    /// expands specifiers, not variables).
    static func environmentAssignment(_ key: String, _ value: String) -> String {
        quoted("\(key)=\(value)".replacingAll("%", with: "%%"))
    }

    /// `"KEY=%d/FILE"` for `Environment=`: the file `FILE` of the unit's credentials folder
    /// (`LoadCredential=`), the one specifier written unescaped.
    static func credentialAssignment(_ key: String, _ file: String) -> String {
        quoted("\(key)=%d/\(file.replacingAll("%", with: "%%"))")
    }

    /// The path `<folder>/<service>/<file>` of a `LoadCredential=ID:PATH`, which systemd takes
    /// as the rest of the line, unquoted, expanding specifiers: `%` doubled; a path that is not
    /// absolute and normalised, or that holds a control character (a line of its own, or an end
    /// of it), is refused.
    static func credentialPath(_ folder: String, _ service: String, _ file: String) throws(ExportError) -> String {
        let path = folder + "/" + service + "/" + file
        if let scalar = ManifestText.controlCharacter(in: path) {
            throw ExportError(
                .unwritable, service: service,
                "certificates: its path holds the control character \(ManifestText.shown(scalar)), which would end "
                    + "the unit's line: name the folder without it")
        }
        guard ManifestText.isNormalisedAbsolutePath(path), ManifestText.fitsFileSystem(path) else {
            throw ExportError(
                .unwritable, service: service,
                "certificates: \(path.debugDescription) is not an absolute, normalised path")
        }
        return path.replacingAll("%", with: "%%")
    }

    /// The value of a `SetCredential=ID:VALUE`, which systemd takes as the rest of the line with C
    /// escapes and specifiers: `\\` and every control character escaped (a line break as `\n`),
    /// `%` doubled, so the credential holds `text` exactly.
    static func credentialValue(_ text: String) -> String {
        String(quoted(text.replacingAll("%", with: "%%")).dropFirst().dropLast())
    }

    /// One field of a tmpfiles.d or sysusers.d line: bare when it holds only safe characters,
    /// else double-quoted with C escapes; `%` (specifiers) doubled in both forms.
    static func tableField(_ field: String) -> String {
        let literal = field.replacingAll("%", with: "%%")
        if !field.isEmpty && field.unicodeScalars.allSatisfy(isBare) && !field.contains("$") { return literal }
        return quoted(literal)
    }

    /// `text` double-quoted as systemd's unquoting reads it back: `\\`, `\"`, `\n`, `\t`, `\r`,
    /// and every other C0 control and DEL as `\xNN`, so that no raw control character (which
    /// systemd reads as the end of a line: `\r`, NUL) is written.
    static func quoted(_ text: String) -> String {
        doubleQuoted(text) { scalar in
            guard scalar.value < 0x20 || scalar.value == 0x7f else { return nil }
            let digits = String(scalar.value, radix: 16)
            return "\\x" + (digits.count < 2 ? "0" : "") + digits
        }
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
