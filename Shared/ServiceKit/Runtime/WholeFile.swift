import Glibc

/// A whole file read as text: the manifest, files the engine compares before it rewrites them,
/// the cgroup's CPU limit, a stored login, a test's output files.
package enum WholeFile {
    /// The text of the file at `path`, or nil when it cannot be read.
    package static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        guard ferror(file) == 0 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
