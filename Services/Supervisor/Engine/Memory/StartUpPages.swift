#if canImport(Glibc)
import Glibc
#endif
import VerticalsServiceKit

/// What a supervisor gives back once its suite is up (issue 26 §4).
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
/// fault does not read ahead; then it drops the program file's unmapped pages from the page
/// cache (`POSIX_FADV_DONTNEED`), since fault-around maps every cached neighbour of a faulting page
/// (up to 64 KiB) and `MADV_RANDOM` does not stop that. Clean file pages are what the kernel would
/// reclaim first under memory pressure anyway; this only does it before the pressure comes. What
/// the supervisor runs later (a status call, a restart) is read back in on its first use.
///
/// It waits for start-up to settle (``settle``) after the last service is ready. Measured with
/// fifty services in the bench (issue 26 §4), RSS 1 s after ready: text alone, advised at the
/// instant the last service was ready, 12.4 MiB [10.5-12.7]; with the data segment, the text
/// last and the cache dropped, half a second after, 9.9 MiB [9.8-10.2] and 10.1 [9.6-10.2] in two
/// runs (the floor, a sleeping Swift program, 3.7). Without the drop, 2-4 MiB of text came back
/// within a second from the page cache (no major fault), one 64 KiB neighbourhood per fault.
///
/// The price: the first restart after the release reads the supervisor's restart path back
/// from disk. Measured with the reference suite (kill -9 of clinics 3 s after ready, release
/// build): the first restart took 38-44 ms to READY=1 against 21-24 ms for the next; 33-38
/// against 23-27 without the cache drop; later ones are as before.
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
        dropCachedProgram()
        return advised
    }

    /// Drops the program file's pages that no process maps from the page cache
    /// (`POSIX_FADV_DONTNEED`). Measured: after `MADV_PAGEOUT` from the process itself the text
    /// pages left its mappings but stayed cached, so each later fault mapped a cached 64 KiB
    /// around it (the kernel's fault-around, which `MADV_RANDOM` does not stop) and 2-4 MiB of
    /// text came back within a second; uncached, a fault maps the one page it reads.
    private static func dropCachedProgram() {
        let program = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
        guard program >= 0 else { return }
        _ = posix_fadvise(program, 0, 0, POSIX_FADV_DONTNEED)
        close(program)
    }

    /// This program's resolved path, as `/proc/self/maps` names its mappings.
    private static func programPath() -> String? {
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
