import VerticalsManifest

/// How values are written into the `Containerfile`: the words of its directives (`COPY`), and
/// POSIX shell words inside its `RUN` lines. The one way a manifest's value reaches the file.
///
/// A directive's shell form splits on blanks, expands `$VARIABLE` and continues a line that
/// ends in `\`; no quoting survives all three, so a directive word is written only when it is
/// made of characters none of them reads (a program's plain name, a folder of the layout), and
/// refused otherwise. A shell word is single-quoted unless bare.
///
/// ```swift
/// ContainerfileSyntax.shellWord("svc-identity")      // "svc-identity"
/// ContainerfileSyntax.shellWord("a;b")               // "'a;b'"
/// try ContainerfileSyntax.directiveWord("a b", service: "x")  // throws
/// ```
enum ContainerfileSyntax {
    /// `word` for a directive's shell form, or an error naming `service` when a character of it
    /// would split, expand or continue the directive.
    static func directiveWord(_ word: String, service: String) throws(ExportError) -> String {
        guard !word.isEmpty, word.unicodeScalars.allSatisfy(isBare) else {
            throw ExportError(
                .unwritable, service: service,
                "\(word.debugDescription) cannot be written into the Containerfile's directives: use A-Z, a-z, 0-9 "
                    + "and . _ / : = + @ - only")
        }
        return word
    }

    /// `word` as one POSIX shell word that expands to exactly itself: bare when it holds only
    /// safe characters, else in single quotes (a `'` written as `'\''`).
    static func shellWord(_ word: String) -> String {
        if !word.isEmpty && word.unicodeScalars.allSatisfy(isBare) { return word }
        var out = "'"
        for scalar in word.unicodeScalars {
            if scalar == "'" { out += "'\\''" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "'"
    }

    /// `words` as shell words (``shellWord(_:)``), separated by spaces.
    static func shellWords(_ words: [String]) -> String {
        words.map(shellWord).joined(separator: " ")
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "._/:=+@-".unicodeScalars.contains(scalar)
    }
}
