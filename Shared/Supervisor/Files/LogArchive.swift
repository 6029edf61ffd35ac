#if canImport(Glibc)
import Glibc
#endif
import CZlib
import VerticalsServiceKit

/// The rotated files of a log: `<log>.1[.gz]` (newest) … `<log>.<keep>[.gz]`. A rotation hands
/// the closed file over under a staging name; the archive moves the older files up, drops the
/// ones past `keep`, and compresses the new `.1` with zlib's gzip writer — on one framework
/// thread off the loop (`SerialWorker`, not a DispatchQueue: no wake-ups once idle), so a
/// 10 MiB file never stalls supervision, and in the order rotations happened.
enum LogArchive {
    /// Where rotations run, one after another.
    private static let worker = SerialWorker()

    /// Files `staged` (the closed log) in as `<log>.1`, compressed when `compress`.
    static func archive(staged: String, log: String, keep: Int, compress: Bool) {
        worker.run { archiveNow(staged: staged, log: log, keep: keep, compress: compress) }
    }

    /// Returns once every rotation asked for so far is done (at close, and in tests).
    static func waitForPending() {
        worker.waitForPending()
    }

    /// The name of rotated file `index`.
    static func name(_ log: String, _ index: Int, compressed: Bool) -> String {
        "\(log).\(index)\(compressed ? ".gz" : "")"
    }

    private static func archiveNow(staged: String, log: String, keep: Int, compress: Bool) {
        guard keep > 0 else {
            unlink(staged)
            return
        }
        // Both spellings move up, so changing `compress` leaves no file behind.
        for compressed in [true, false] {
            unlink(name(log, keep, compressed: compressed))
            for index in stride(from: keep - 1, through: 1, by: -1) {
                rename(name(log, index, compressed: compressed), name(log, index + 1, compressed: compressed))
            }
        }
        let first = name(log, 1, compressed: false)
        guard compress else {
            rename(staged, first)
            return
        }
        let temporary = name(log, 1, compressed: true) + ".partial"
        if gzip(staged, into: temporary) {
            rename(temporary, name(log, 1, compressed: true))
            unlink(staged)
        } else {
            // Kept readable rather than lost: uncompressed, under the plain name.
            unlink(temporary)
            rename(staged, first)
        }
    }

    /// Writes `source` gzip-compressed (level 6) to `destination`; false on any failure.
    static func gzip(_ source: String, into destination: String) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        // The archive is made with the live log's mode (0640), not gzopen's 0666 less the umask,
        // and never through a link; gzclose closes the descriptor.
        let file = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o640)
        guard file >= 0 else { return false }
        guard let output = gzdopen(file, "wb6") else {
            close(file)
            return false
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var ok = true
        while ok {
            let count = read(input, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                ok = count == 0
                break
            }
            ok = gzwrite(output, chunk, UInt32(count)) == Int32(count)
        }
        return gzclose(output) == Z_OK && ok
    }
}
