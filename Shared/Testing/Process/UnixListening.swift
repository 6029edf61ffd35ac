/// Whether a Unix stream socket bound at `path` is listening, read from the kernel's table
/// (`/proc/net/unix`, the `__SO_ACCEPTCON` flag) without connecting to it.
///
/// A socket file appears at `bind`, before `listen`: a test that waits for the file and then
/// connects may be refused in between (seen under load with `systemd-socket-activate`). And
/// connecting to wait would itself start a socket-activated daemon.
public func isListening(unixSocket path: String) -> Bool {
    // Read to its end (``readFile(_:)``): a proc file reports size 0 and yields a page at a time.
    guard let table = readFile("/proc/net/unix") else { return false }
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
