import Glibc

/// A whole file read as text: the manifest, files the engine compares before it rewrites them,
/// the cgroup's CPU limit, a stored login, a test's output files.
package enum WholeFile {
    /// The text of the file at `path`, or nil when it cannot be read.
    package static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readToEnd(fd)
    }

    /// The text from `fd`'s position to its end, or nil when a read fails.
    package static func readToEnd(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes += chunk[..<count]
        }
    }
}
