import Glibc
import VerticalsWire

/// Where ``SuiteCertificates`` go, laid out as cert-manager's TLS Secrets are mounted, so the
/// same environment works with either:
///
/// ```
/// DIR/ca.crt  DIR/ca.key                        the suite CA (keep ca.key off every host)
/// DIR/NAME/tls.crt  DIR/NAME/tls.key  DIR/NAME/ca.crt   one folder per service, and operator/
/// ```
///
/// A service then runs with `VERTICALS_TLS_CERT=DIR/NAME/tls.crt`, `VERTICALS_TLS_KEY=DIR/NAME/tls.key`
/// and `VERTICALS_TLS_CA=DIR/NAME/ca.crt`. Keys are written 0600, certificates 0644. Every folder
/// holds a key, so each is 0700, but DIR is 0711: a service's user passes through it to its own
/// folder (which `svc-supervisor up` gives that user, key and all) and cannot list it.
///
/// Files are written from a descriptor of their folder under a new name (`O_EXCL|O_NOFOLLOW`),
/// then renamed into place, so a link planted in a folder is replaced, never followed. DIR must be
/// this user's own; a service's folder this user's or, once `up` gave it away, its service user's,
/// whose new files are then that user's too.
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
                    .exists,
                    "\(path) already holds \(existing.prefix(3).joined(separator: ", "))"
                        + (existing.count > 3 ? " and \(existing.count - 3) more" : "")
                        + ": pass --force to mint new ones (every certificate of the old CA stops working)",
                    details: [ErrorDetail("path", path)])
            }
        }
        let top = try openFolder(path, shownAs: path, mode: 0o711, at: AT_FDCWD, mustBeOwn: true)
        var folders: [String: Int32] = ["": top]
        defer { for fd in folders.values { close(fd) } }
        for file in files {
            let slash = file.path.lastIndex(of: "/")
            let folderName = slash.map { String(file.path[..<$0]) } ?? ""
            let folder: Int32
            if let open = folders[folderName] {
                folder = open
            } else {
                folder = try openFolder(
                    folderName, shownAs: "\(path)/\(folderName)", mode: 0o700, at: top, mustBeOwn: false)
                folders[folderName] = folder
            }
            let name = slash.map { String(file.path[file.path.index(after: $0)...]) } ?? file.path
            try write(file.text, to: name, in: folder, shownAs: "\(path)/\(file.path)", mode: file.mode)
        }
        return files.map(\.path)
    }

    /// Makes (with `mode`) or opens the folder `name` relative to `parent`, never through a link.
    /// It must be this user's own (then set to `mode`), or, unless `mustBeOwn`, one `up` gave to
    /// a service's user (not root's, when this user is not root).
    private func openFolder(
        _ name: String, shownAs shown: String, mode: mode_t, at parent: Int32, mustBeOwn: Bool
    ) throws(CertificatesError) -> Int32 {
        if mkdirat(parent, name, mode) != 0 && errno != EEXIST {
            throw CertificatesError(
                .system, "cannot make \(shown): \(String(cString: strerror(errno)))",
                details: [ErrorDetail("path", shown)])
        }
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw CertificatesError(
                .system, "cannot open \(shown) (a symbolic link is refused): \(String(cString: strerror(errno)))",
                details: [ErrorDetail("path", shown)])
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CertificatesError(.system, "cannot read \(shown): \(reason)", details: [ErrorDetail("path", shown)])
        }
        if info.st_uid == geteuid() {
            fchmod(fd, mode)
        } else if mustBeOwn || info.st_uid == 0 {
            close(fd)
            throw CertificatesError(
                .notOwned,
                "\(shown) belongs to uid \(info.st_uid), not to you (uid \(geteuid())): write the certificates "
                    + "into a folder of your own",
                details: [ErrorDetail("path", shown)])
        }
        return fd
    }

    /// Writes `text` to a new file beside `name` in `folder`, made with `mode` (a key is never
    /// readable by others, not even for a moment) and owned by the folder's owner, then renames it
    /// over `name`. Neither name is followed when it is a link.
    private func write(
        _ text: String, to name: String, in folder: Int32, shownAs target: String, mode: mode_t
    ) throws(CertificatesError) {
        let temporary = "\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else {
            throw CertificatesError(
                .system, "cannot write \(target): \(String(cString: strerror(errno)))",
                details: [ErrorDetail("path", target)])
        }
        func failure() -> CertificatesError {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlinkat(folder, temporary, 0)
            return CertificatesError(
                .system, "cannot write \(target): \(reason)", details: [ErrorDetail("path", target)])
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw failure() }
            written += count
        }
        var owner = stat()
        guard fstat(folder, &owner) == 0, fchmod(fd, mode) == 0 else { throw failure() }
        if owner.st_uid != geteuid() && fchown(fd, owner.st_uid, owner.st_gid) != 0 { throw failure() }
        guard fsync(fd) == 0 else { throw failure() }
        close(fd)
        guard renameat(folder, temporary, folder, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(folder, temporary, 0)
            throw CertificatesError(
                .system, "cannot write \(target): \(reason)", details: [ErrorDetail("path", target)])
        }
    }
}
