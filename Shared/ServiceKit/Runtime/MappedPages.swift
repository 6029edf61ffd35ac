#if canImport(Glibc)
import Glibc
#endif

/// The pages this process maps from files, as `/proc/self/maps` and `/proc/self/pagemap` tell
/// them: what a daemon gives back once it serves (``dropReadOnlyFilePages()``), and what the
/// supervisor's own start-up release (its `StartUpPages`) is built on.
///
/// Most of a daemon's resident memory is not its own data but clean pages of files it maps: its
/// program (a release build carries Swift's runtime and Foundation inside it) and the C libraries.
/// Start-up touches most of them once (type metadata, the store's migrations, the routes) and the
/// kernel's fault-around maps each touched page's 64 KiB neighbourhood too. Measured with clinics
/// in a release build: 24 MiB resident when ready, 21.7 of them clean file pages, 13.6 of those
/// its program's text; after ``dropReadOnlyFilePages()``, 8 MiB a second later.
package enum MappedPages {
    /// One mapping of a file, a line of `/proc/self/maps`.
    package struct Mapping: Sendable, Equatable {
        /// Its first address.
        package var start: UInt
        /// The address just past it.
        package var end: UInt
        /// As the kernel writes them: `r-xp`, `r--p`, `rw-p`, `r--s`, …
        package var permissions: String
        /// The file's path as the kernel names it (` (deleted)` at its end once the file is gone).
        package var path: String

        /// Private (copy-on-write), not shared with the file.
        package var isPrivate: Bool { permissions.hasSuffix("p") }
        /// Writable: its pages may be written, and a written page is the process's own copy.
        package var isWritable: Bool { permissions.utf8.dropFirst().first == UInt8(ascii: "w") }

        package init(start: UInt, end: UInt, permissions: String, path: String) {
            self.start = start
            self.end = end
            self.permissions = permissions
            self.path = path
        }

        /// The mapping a `/proc/PID/maps` line describes ("start-end perms offset dev inode path"),
        /// if it maps a file (its path is absolute); nil for anonymous memory, the stack, `[vdso]`.
        package init?(mapsLine line: Substring) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { return nil }
            let path = fields[5].drop { $0 == " " }.prefix { $0 != "\n" }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard path.hasPrefix("/"), bounds.count == 2, bounds[1] > bounds[0] else { return nil }
            self.init(start: bounds[0], end: bounds[1], permissions: String(fields[1]), path: String(path))
        }
    }

    /// Every mapping of a file this process has, in address order; empty when `/proc` cannot be read.
    package static func fileMappings() -> [Mapping] {
        var mappings: [Mapping] = []
        forEachLine(of: "/proc/self/maps") { line in
            if let mapping = Mapping(mapsLine: line[...]) { mappings.append(mapping) }
        }
        return mappings
    }

    /// Calls `body` with each run of the `mappings`' pages that are resident and still the file's
    /// (`/proc/self/pagemap`, opened once: present, and a file page; a page written since is an
    /// anonymous copy and never passed), as its address and length in bytes. Nothing when pagemap
    /// cannot be read.
    package static func forEachFileRun(in mappings: some Sequence<Mapping>, _ body: (UnsafeMutableRawPointer, Int) -> Void) {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0 else { return }
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return }
        defer { close(pagemap) }
        let presentFilePage: UInt64 = 1 << 63 | 1 << 61
        for mapping in mappings {
            let count = Int((mapping.end - mapping.start) / page)
            var entries = [UInt64](repeating: 0, count: count)
            let wanted = count * MemoryLayout<UInt64>.size
            let read = entries.withUnsafeMutableBytes { pread(pagemap, $0.baseAddress, wanted, off_t(mapping.start / page) * 8) }
            guard read == wanted else { continue }
            var runStart: Int?
            for index in 0...count {
                let isFile = index < count && entries[index] & presentFilePage == presentFilePage
                if isFile, runStart == nil { runStart = index }
                if !isFile, let first = runStart,
                    let address = UnsafeMutableRawPointer(bitPattern: mapping.start + UInt(first) * page)
                {
                    body(address, (index - first) * Int(page))
                    runStart = nil
                }
            }
        }
    }

    /// Unmaps from this process the resident pages of its read-only private file mappings (the
    /// program's and the libraries' text and constant data) that are still the file's; returns
    /// their bytes. What runs later faults its pages back in from the page cache, which keeps
    /// them: nothing is read from disk again, and another process (the next start of this
    /// daemon) finds them there as before.
    ///
    /// `MADV_DONTNEED` on a page that is the file's loses nothing: it reads back the same. Only
    /// read-only mappings, so no other thread can write a page between the look and the advice
    /// (a written page of a writable mapping would be lost); a read-only mapping's copied pages
    /// (RELRO, relocated at load) are anonymous and never passed. Any thread may call it, and
    /// the others run on meanwhile: a page they touch faults back in.
    @discardableResult
    package static func dropReadOnlyFilePages() -> Int {
        var dropped = 0
        forEachFileRun(in: fileMappings().filter { $0.isPrivate && !$0.isWritable }) { address, length in
            if madvise(address, length, MADV_DONTNEED) == 0 { dropped += length }
        }
        return dropped
    }

    /// This process's resident memory in bytes (`VmRSS` of `/proc/self/status`); nil where unread.
    package static func residentBytes() -> Int? {
        var resident: Int?
        forEachLine(of: "/proc/self/status") { line in
            guard line.hasPrefix("VmRSS:") else { return }
            resident = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
                .flatMap { Int($0) }.map { $0 << 10 }
        }
        return resident
    }

    /// Calls `body` with each line of the `/proc` file at `path` (read to its end: a `/proc` file
    /// reports size 0 and yields a page at a time); nothing when it cannot be opened.
    package static func forEachLine(of path: String, _ body: (String) -> Void) {
        guard let file = fopen(path, "r") else { return }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            body(String(cString: line))
        }
    }
}
