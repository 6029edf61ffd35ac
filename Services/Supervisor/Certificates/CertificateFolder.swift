import Glibc

/// Where ``SuiteCertificates`` go, laid out as cert-manager's TLS Secrets are mounted, so the
/// same environment works with either:
///
/// ```
/// DIR/ca.crt  DIR/ca.key                        the suite CA (keep ca.key off every host)
/// DIR/NAME/tls.crt  DIR/NAME/tls.key  DIR/NAME/ca.crt   one folder per service, and operator/
/// ```
///
/// A service then runs with `VERTICALS_TLS_CERT=DIR/NAME/tls.crt`, `VERTICALS_TLS_KEY=DIR/NAME/tls.key`
/// and `VERTICALS_TLS_CA=DIR/NAME/ca.crt`. Keys are written 0600, certificates 0644, folders 0755
/// (a key's folder 0700).
public struct CertificateFolder: Sendable {
    /// The folder.
    public let path: String

    /// The folder at `path` (made when written).
    public init(path: String) { self.path = path }

    /// The files of `minted`, relative to the folder, with their modes.
    public static func files(of minted: SuiteCertificates) -> [(path: String, text: String, mode: mode_t)] {
        var files: [(String, String, mode_t)] = [
            ("ca.crt", minted.authorityCertificate, 0o644), ("ca.key", minted.authorityKey, 0o600),
        ]
        for identity in minted.identities {
            files += [
                ("\(identity.name)/tls.crt", identity.certificate, 0o644),
                ("\(identity.name)/tls.key", identity.key, 0o600),
                ("\(identity.name)/ca.crt", minted.authorityCertificate, 0o644),
            ]
        }
        return files
    }

    /// Writes `minted`. Unless `replacing`, refuses before writing anything when one of its files
    /// exists already (a CA replaced by accident strands every certificate it signed).
    /// Returns the paths written, relative to the folder.
    @discardableResult
    public func write(_ minted: SuiteCertificates, replacing: Bool) throws(CertificatesError) -> [String] {
        let files = Self.files(of: minted)
        if !replacing {
            let existing = files.map(\.path).filter { access("\(path)/\($0)", F_OK) == 0 }
            if !existing.isEmpty {
                throw CertificatesError(
                    "\(path) already holds \(existing.prefix(3).joined(separator: ", "))"
                        + (existing.count > 3 ? " and \(existing.count - 3) more" : "")
                        + ": pass --force to mint new ones (every certificate of the old CA stops working)")
            }
        }
        try makeFolder(path, mode: 0o755)
        for file in files {
            let target = "\(path)/\(file.path)"
            if let slash = file.path.lastIndex(of: "/") {
                try makeFolder("\(path)/\(file.path[..<slash])", mode: 0o755)
            }
            try write(file.text, to: target, mode: file.mode)
        }
        return files.map(\.path)
    }

    private func makeFolder(_ folder: String, mode: mode_t) throws(CertificatesError) {
        if mkdir(folder, mode) != 0 && errno != EEXIST {
            throw CertificatesError("cannot make \(folder): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `text` to a temporary file made with `mode` (a key is never readable by others,
    /// not even for a moment), then renames it over `target`.
    private func write(_ text: String, to target: String, mode: mode_t) throws(CertificatesError) {
        let temporary = "\(target).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw CertificatesError("cannot write \(target): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw CertificatesError("cannot write \(target): \(reason)")
            }
            written += count
        }
        fchmod(fd, mode)
        guard fsync(fd) == 0, close(fd) == 0, rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CertificatesError("cannot write \(target): \(reason)")
        }
    }
}
