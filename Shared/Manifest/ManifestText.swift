/// What text a manifest may hold where it names things: the rules the manifest's reader applies
/// where a value enters, so that no export has to carry a value into a file whose syntax it
/// could change (a newline into a unit, a `;` into a shell line).
///
/// ```swift
/// ManifestText.controlCharacter(in: "/etc/certs\nExecStartPre=+/bin/sh")  // "\n"
/// ManifestText.isProgramName("svc-identity")                             // true
/// ManifestText.isProgramName("x;touch${IFS}y")                           // false
/// ```
public enum ManifestText {
    /// The first control character of `text`: C0 (tab and newline included), DEL, C1, and the
    /// Unicode line and paragraph separators; nil when it has none. No name, path or folder
    /// needs one, and each ends or changes a line of some file an export writes.
    public static func controlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isControl)
    }

    /// The first character no process can receive in an argument or an environment value
    /// (NUL ends a C string) or that ends a line where a newline does not (C0 other than tab
    /// and newline, DEL, C1, U+2028, U+2029); nil when it has none.
    public static func unpassableCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { isControl($0) && $0 != "\t" && $0 != "\n" }
    }

    /// Whether `name` is a plain file name: `A–Z a–z 0–9 . _ -` only, not `.` or `..`. A
    /// program's name is one: it is a product of the package, copied into the image under it.
    public static func isProgramName(_ name: String) -> Bool {
        guard !name.isEmpty, name != ".", name != ".." else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "._-".unicodeScalars.contains($0)
        }
    }

    /// Whether `path` is absolute and normalised: it starts with `/`, and has no empty, `.` or
    /// `..` component and no trailing `/` (`/` itself is one).
    public static func isNormalisedAbsolutePath(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        if path == "/" { return true }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }

    /// Whether every component of `path` fits a file name (at most 255 bytes, `NAME_MAX`) and
    /// the whole a path (`PATH_MAX`, 4096 bytes with its NUL).
    public static func fitsFileSystem(_ path: String) -> Bool {
        path.utf8.count < 4096 && path.split(separator: "/").allSatisfy { $0.utf8.count <= 255 }
    }

    /// `scalar` as a reader sees it in a message: `U+000A`.
    public static func shown(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
