/// Where `svc-supervisor init` and `new` find Swift: as the Makefiles do (`swift.mk`), `SWIFT` when
/// it names a path, else `swift` on `PATH`, else the toolchain at `/opt/swift`, where swift.org's
/// tarball is unpacked. So a shell whose `PATH` lacks Swift scaffolds a product as `make run` then
/// builds it.
public enum SwiftToolchain {
    /// A POSIX shell prefix that puts that Swift's folder first on `PATH` for the commands after it.
    public static let shellPrefix =
        #"case "${SWIFT:-}" in */*) PATH="${SWIFT%/*}:$PATH" ;; *) command -v swift >/dev/null 2>&1 "#
        + #"|| PATH="/opt/swift/usr/bin:$PATH" ;; esac; export PATH; "#

    /// What to do when no Swift was found that way.
    public static let advice =
        "put the Swift toolchain on PATH, unpack it at /opt/swift, or name it with SWIFT=/path/to/swift"
}
