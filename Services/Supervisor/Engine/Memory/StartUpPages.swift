#if canImport(Glibc)
import Glibc
#endif
import VerticalsServiceKit

/// What a supervisor gives back once its suite is up.
///
/// Most of a supervisor's resident memory is not its own data but clean pages of its program
/// file: the code that read the manifest, bound the sockets and spawned every service, mapped
/// 64 KiB at a time by the kernel's fault-around. They stay resident after start-up though the
/// supervisor will not run that code again until a reload. Measured with the reference suite in
/// a release build: 24 MiB resident, of which 2.9 MiB anonymous and 13.7 MiB the program's text.
///
/// ``release()`` asks the kernel to reclaim the program's own pages that only start-up needed
/// (`MADV_PAGEOUT`, Linux 5.4 and later; an older kernel ignores the advice): the clean pages of
/// its writable data segment (told apart by `/proc/self/pagemap`: a page the supervisor wrote is
/// never advised, it would go to swap), then its text, last, marked `MADV_RANDOM` so that a later
/// fault does not read ahead. Clean file pages are what the kernel would reclaim first under
/// memory pressure anyway; this only does it before the pressure comes. What the supervisor runs
/// later (a status call, a restart) faults back in from the page cache on its first use.
///
/// The program file's pages stay in the page cache. Dropping them too (`POSIX_FADV_DONTNEED`)
/// kept the resident figure lower, since the kernel's fault-around maps every cached neighbour of
/// a faulting page, but it made the first restart after it read the restart path back from disk,
/// and took the cached pages of every other process running the same binary: a real cost, paid at
/// the worst moment, for a figure that counts shared, reclaimable pages. Memory is judged by
/// private dirty memory and PSS (`/proc/PID/smaps_rollup`), which clean file pages are not.
///
/// It waits for start-up to settle (``settle``) after the last service is ready.
enum StartUpPages {
    /// `MADV_PAGEOUT` (linux/mman.h); Glibc's headers of some distributions do not name it.
    private static let pageOut: Int32 = 21

    /// How long after the last service is ready the pages are given back.
    static let settle = Duration.milliseconds(500)

    /// Bytes of the program's own text resident now (the `Rss` of its read-only executable
    /// mappings in `/proc/self/smaps`); 0 where that cannot be read.
    static func residentText() -> Int {
        guard let program = programPath() else { return 0 }
        var resident = 0
        var inText = false
        MappedPages.forEachLine(of: "/proc/self/smaps") { line in
            let first = line.prefix { $0 != " " }
            if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {  // a mapping's line, not a field's
                let mapping = MappedPages.Mapping(mapsLine: line[...])
                inText = mapping?.permissions == "r-xp" && mapping?.path == program
            } else if inText, line.hasPrefix("Rss:"),
                let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
            {
                resident += kib << 10
            }
        }
        return resident
    }

    /// Releases start-up's pages; returns the bytes of program text advised (0 where none could be).
    ///
    /// Besides the text, the clean pages of the program's writable data segment go too: pages
    /// start-up read (type metadata, tables) but never wrote are still the file's, and were 1.8 of
    /// that segment's 2.2 MiB resident. They are told apart by `/proc/self/pagemap` (a page still
    /// the file's), so no page the supervisor wrote is ever advised (it would go to swap).
    @discardableResult
    static func release() -> Int {
        guard let program = programPath() else { return 0 }
        let mappings = MappedPages.fileMappings().filter { $0.path == program }
        MappedPages.forEachFileRun(in: mappings.filter { $0.permissions == "rw-p" }) { address, length in
            _ = madvise(address, length, pageOut)
        }
        // The text last, with nothing but system calls after it: code run after the advice
        // faults its pages (and their neighbours) straight back.
        var advised = 0
        for text in mappings where text.permissions == "r-xp" {
            let (pointer, length) = (UnsafeMutableRawPointer(bitPattern: text.start), Int(text.end - text.start))
            if madvise(pointer, length, pageOut) == 0 { advised += length }
            _ = madvise(pointer, length, MADV_RANDOM)
        }
        return advised
    }

    /// This program's resolved path, as `/proc/self/maps` names its mappings.
    private static func programPath() -> String? {
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
