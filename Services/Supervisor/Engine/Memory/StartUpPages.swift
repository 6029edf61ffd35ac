#if canImport(Glibc)
import Glibc
#endif

/// What a supervisor gives back once its suite is up (issue 26 §4).
///
/// Most of a supervisor's resident memory is not its own data but clean pages of its program
/// file: the code that read the manifest, bound the sockets and spawned every service, mapped
/// 64 KiB at a time by the kernel's fault-around. They stay resident after start-up though the
/// supervisor will not run that code again until a reload. Measured with the reference suite in
/// a release build: 24 MiB resident, of which 2.9 MiB anonymous and 13.7 MiB the program's text.
///
/// ``release()`` asks the kernel to reclaim the program's own text pages (`MADV_PAGEOUT`, Linux 5.4 and later; an older
/// kernel ignores the advice), then marks that text `MADV_RANDOM`: a later fault then reads and
/// maps the one page it needs, where the default reads around it and maps its 64 KiB neighbourhood
/// (a `status` call after the release brought 5.8 MiB of text back that way). Clean file pages are what the kernel would reclaim first under
/// memory pressure anyway; this only does it before the pressure comes. What the supervisor runs
/// later (a status call, a restart) is read back in on its first use. Only read-only executable
/// mappings are advised: anonymous copy-on-write pages of a writable mapping would go to swap.
enum StartUpPages {
    /// `MADV_PAGEOUT` (linux/mman.h); Glibc's headers of some distributions do not name it.
    private static let pageOut: Int32 = 21

    /// Releases start-up's pages; returns the bytes of program text advised (0 where none could be).
    @discardableResult
    static func release() -> Int {
        guard let program = realpath("/proc/self/exe", nil) else { return 0 }
        defer { free(program) }
        let path = String(cString: program)
        guard let maps = fopen("/proc/self/maps", "r") else { return 0 }
        defer { fclose(maps) }
        var advised = 0
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            // "start-end perms offset dev inode path"
            let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r-xp", fields[5].dropLast(fields[5].hasSuffix("\n") ? 1 : 0) == path[...]
            else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0],
                let start = UnsafeMutableRawPointer(bitPattern: bounds[0])
            else { continue }
            let length = Int(bounds[1] - bounds[0])
            if madvise(start, length, pageOut) == 0 { advised += length }
            _ = madvise(start, length, MADV_RANDOM)
        }
        return advised
    }
}
