import Glibc
import Testing
@testable import VerticalsServiceKit
import VerticalsTesting

/// ``MappedPages``: reading `/proc/self/maps`, and giving back read-only file pages without
/// losing a byte, while a written page of a writable mapping stays as written.
struct MappedPagesTests {
    @Test func aMapsLine_ofAFile_isAMapping_andOthersAreNot() throws {
        let text = try #require(MappedPages.Mapping(
            mapsLine: "55d0c0a00000-55d0c1f00000 r-xp 00a00000 fe:00 331  /usr/bin/svc clinics (deleted)\n"))
        #expect(text.start == 0x55d0_c0a0_0000 && text.end == 0x55d0_c1f0_0000)
        #expect(text.permissions == "r-xp" && text.path == "/usr/bin/svc clinics (deleted)")
        #expect(text.isPrivate && !text.isWritable)
        let data = try #require(MappedPages.Mapping(mapsLine: "7f00-8f00 rw-p 00000000 fe:00 12 /lib/libc.so.6"))
        #expect(data.isPrivate && data.isWritable)
        let shared = try #require(MappedPages.Mapping(mapsLine: "7f00-8f00 r--s 00000000 fe:00 12 /db/a.sqlite-shm"))
        #expect(!shared.isPrivate)
        for line in [
            "7f00-8f00 rw-p 00000000 00:00 0 ", "7f00-8f00 rw-p 00000000 00:00 0                  [heap]",
            "7ffd-7ffe r-xp 00000000 00:00 0 [vdso]", "8f00-7f00 r--p 00000000 fe:00 12 /backwards", "not a line",
        ] {
            #expect(MappedPages.Mapping(mapsLine: line[...]) == nil, "\(line)")
        }
    }

    @Test func fileMappings_includeThisTestProgram() {
        let mappings = MappedPages.fileMappings()
        #expect(mappings.contains { $0.permissions == "r-xp" }, "no executable file mapping in \(mappings.count)")
        #expect(MappedPages.residentBytes().map { $0 > 0 } == true)
    }

    /// A read-only private mapping's pages leave this process's mapping and read back the same;
    /// a writable private mapping's written page is never dropped.
    @Test func dropReadOnlyFilePages_dropsReadOnlyPages_keepsTheirBytes_andNeverAWrittenPage() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("pages")
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = (0..<(8 * page)).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)

        let mappedReadOnly = mmap(nil, bytes.count, PROT_READ, MAP_PRIVATE, fd, 0)
        let mappedWritable = mmap(nil, bytes.count, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)
        let readOnly = try #require(mappedReadOnly == MAP_FAILED ? nil : mappedReadOnly)
        let writable = try #require(mappedWritable == MAP_FAILED ? nil : mappedWritable)
        defer {
            munmap(readOnly, bytes.count)
            munmap(writable, bytes.count)
        }
        var sum = 0
        for offset in stride(from: 0, to: bytes.count, by: page) {
            sum += Int(readOnly.load(fromByteOffset: offset, as: UInt8.self))  // resident, still the file's
            sum += Int(writable.load(fromByteOffset: offset, as: UInt8.self))
        }
        writable.storeBytes(of: 0xAB, toByteOffset: 3 * page + 1, as: UInt8.self)  // one page copied
        #expect(sum > 0)
        #expect(try residentPages(readOnly, page, count: 8) == 8, "every read-only page resident before")

        #expect(MappedPages.dropReadOnlyFilePages() >= 8 * page)

        #expect(try residentPages(readOnly, page, count: 8) == 0, "the read-only pages left this mapping")
        #expect(Array(UnsafeRawBufferPointer(start: readOnly, count: bytes.count)) == bytes, "and read back the same")
        #expect(writable.load(fromByteOffset: 3 * page + 1, as: UInt8.self) == 0xAB, "the written page kept its byte")
        #expect(try residentPages(writable, page, count: 8) >= 1, "a writable mapping is left alone")
    }

    /// How many of the `count` pages at `address` this process has resident (pagemap's present bit).
    private func residentPages(_ address: UnsafeMutableRawPointer, _ page: Int, count: Int) throws -> Int {
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        try #require(pagemap >= 0)
        defer { close(pagemap) }
        var entries = [UInt64](repeating: 0, count: count)
        let offset = off_t(UInt(bitPattern: address) / UInt(page) * 8)
        let read = entries.withUnsafeMutableBytes { pread(pagemap, $0.baseAddress, $0.count, offset) }
        try #require(read == count * 8)
        return entries.filter { $0 & (1 << 63) != 0 }.count
    }
}
