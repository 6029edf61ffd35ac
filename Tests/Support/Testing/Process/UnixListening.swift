import Glibc

/// Whether a Unix stream socket bound at `path` is listening, read from the kernel's table
/// (`/proc/net/unix`, the `__SO_ACCEPTCON` flag) without connecting to it.
///
/// A socket file appears at `bind`, before `listen`: a test that waits for the file and then
/// connects may be refused in between (seen under load with `systemd-socket-activate`). And
/// connecting to wait would itself start a socket-activated daemon.
public func isListening(unixSocket path: String) -> Bool {
    guard let table = procFile("/proc/net/unix") else { return false }
    // Num RefCount Protocol Flags Type St Inode Path
    for line in table.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 8, fields[7...].joined(separator: " ") == path,
            let flags = UInt32(fields[3], radix: 16)
        else { continue }
        if flags & 0x10000 != 0 { return true }
    }
    return false
}

/// The whole of a `/proc` file, read until end of file: it reports a size of 0 and yields its
/// text a page at a time, so a reader that trusts the size or reads once sees only the start.
private func procFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
        bytes.append(contentsOf: chunk[..<count])
    }
}
