#if canImport(Glibc)
import Glibc
#endif
import VerticalsWire

/// What the dynamic loader reads from an ELF file before any of its code runs: the interpreter
/// (`PT_INTERP`, the loader itself), the folders it searches for libraries (`DT_RPATH`,
/// `DT_RUNPATH`, as written: `$ORIGIN` and the like unexpanded) and the libraries it needs
/// (`DT_NEEDED`). ``ProgramWriters`` holds each folder to the rule the program's own passes.
///
/// Read from a file a less-trusted user may have made, so every offset and count is bounded
/// before it is used: 64-bit little-endian only (what runs here), at most
/// ``maxProgramHeaders`` program headers, a dynamic section of at most ``maxDynamicBytes``,
/// strings of at most ``maxStringBytes``. What breaks a bound, points outside the file or cannot
/// be parsed is an ``ELFLinkage/Problem``, never a crash or a long read.
package struct ELFLinkage: Equatable, Sendable {
    /// The interpreter's path, nil for a static program or a library.
    package var interpreter: String?
    /// `DT_RPATH`'s folders, as written (inherited by the libraries the file loads).
    package var rpath: [String] = []
    /// `DT_RUNPATH`'s folders, as written (for the file's own `DT_NEEDED` only).
    package var runpath: [String] = []
    /// The libraries it needs, by name.
    package var needed: [String] = []

    /// Program headers read at most.
    package static let maxProgramHeaders = 256
    /// Bytes of the dynamic section read at most.
    package static let maxDynamicBytes = 64 << 10
    /// Libraries and search paths (`DT_NEEDED`, `DT_RPATH`, `DT_RUNPATH`) read at most.
    package static let maxNamedEntries = 1024
    /// Bytes of one string (a path, a list of folders, a library's name) read at most.
    package static let maxStringBytes = 4096

    /// Why an ELF file could not be read.
    ///
    /// Its ``code`` is `unreadable` (the file could not be opened or examined), `unsupported`
    /// (not 64-bit little-endian), `tooLarge` (over a bound the supervisor reads) or `malformed`.
    package struct Problem: StoredCodedError {
        /// What kind of problem it is.
        package typealias Code = ErrorKind<Problem>

        /// What kind of problem it is, and what was wrong, in words.
        package let storage: CodedErrorStorage<Problem>

        /// The problem `storage` describes.
        package init(storage: CodedErrorStorage<Problem>) { self.storage = storage }
    }

    /// The linkage of the file at `path`, nil when it is not an ELF file (a script).
    ///
    /// - Throws: ``Problem`` when it cannot be opened, or starts as ELF and cannot be read whole.
    package static func read(_ path: String) throws(Problem) -> ELFLinkage? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Problem(.unreadable, "cannot open it: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw Problem(.unreadable, "cannot stat it: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = UInt64(max(0, info.st_size))
        return try parse(size: size) { offset, count in
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
    }

    /// The linkage of the ELF file of `size` bytes that `read(offset, count)` reads (nil: the
    /// bytes could not be read), nil when it does not start as ELF. Every read is within `size`.
    package static func parse(size: UInt64, read: @escaping (UInt64, Int) -> [UInt8]?) throws(Problem) -> ELFLinkage? {
        let file = Reader(size: size, read: read)
        guard size >= 4, let magic = file.bytes(at: 0, 4), magic == [0x7F, 0x45, 0x4C, 0x46] else { return nil }
        let header = try file.require(at: 0, 64, "the ELF header")
        guard header[4] == 2, header[5] == 1 else {
            throw Problem(.unsupported, "a 32-bit or big-endian ELF file, which the supervisor does not read")
        }
        let tableOffset = header.u64(32)
        let entrySize = Int(header.u16(54))
        let count = Int(header.u16(56))
        guard count <= maxProgramHeaders else {
            throw Problem(
                .tooLarge, "\(count) program headers, more than the \(maxProgramHeaders) the supervisor reads")
        }
        guard count == 0 || entrySize >= 56 else {
            throw Problem(.malformed, "program headers of \(entrySize) bytes, under 56")
        }
        var linkage = ELFLinkage()
        var loads: [(address: UInt64, offset: UInt64, size: UInt64)] = []
        var dynamic: (offset: UInt64, size: UInt64)?
        for index in 0..<count {
            let entry = try file.require(at: tableOffset, plus: UInt64(index * entrySize), 56, "a program header")
            let (type, offset, address, size) = (entry.u32(0), entry.u64(8), entry.u64(16), entry.u64(32))
            switch type {
            case 1: loads.append((address, offset, size)) // PT_LOAD
            case 2: dynamic = (offset, size) // PT_DYNAMIC
            case 3: // PT_INTERP
                guard size > 0, size <= UInt64(maxStringBytes) else {
                    throw Problem(
                        size == 0 ? .malformed : .tooLarge, "an interpreter path of \(size) bytes (PT_INTERP)")
                }
                let bytes = try file.require(at: offset, Int(size), "the interpreter path (PT_INTERP)")
                linkage.interpreter = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            default: break
            }
        }
        guard let dynamic else { return linkage }
        guard dynamic.size <= UInt64(maxDynamicBytes) else {
            throw Problem(
                .tooLarge, "a dynamic section of \(dynamic.size) bytes, more than the \(maxDynamicBytes) read")
        }
        let section = try file.require(at: dynamic.offset, Int(dynamic.size), "the dynamic section")
        var strings: UInt64?
        var entries: [(tag: UInt64, value: UInt64)] = []
        for start in stride(from: 0, to: section.count - 15, by: 16) {
            let (tag, value) = (section.u64(start), section.u64(start + 8))
            if tag == 0 { break } // DT_NULL
            if tag == 5 { strings = value } // DT_STRTAB, an address
            guard tag == 1 || tag == 15 || tag == 29 else { continue }
            guard entries.count < maxNamedEntries else {
                throw Problem(
                    .tooLarge, "more than \(maxNamedEntries) libraries and search paths in its dynamic section")
            }
            entries.append((tag, value))
        }
        guard !entries.isEmpty else { return linkage }
        guard let strings,
            let load = loads.first(where: { strings >= $0.address && strings - $0.address < $0.size })
        else { throw Problem(.malformed, "its string table (DT_STRTAB) lies in no loaded segment") }
        let tableStart = load.offset.addingReportingOverflow(strings - load.address)
        guard !tableStart.overflow else {
            throw Problem(.malformed, "its string table (DT_STRTAB) lies outside the file")
        }
        for (tag, value) in entries {
            let text = try file.string(at: tableStart.partialValue, plus: value)
            switch tag {
            case 1: linkage.needed.append(text)
            case 15: linkage.rpath += text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            default: linkage.runpath += text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            }
        }
        return linkage
    }

    /// Bounded reads of a file of `size` bytes.
    private struct Reader {
        let size: UInt64
        let read: (UInt64, Int) -> [UInt8]?

        /// `count` bytes at `offset`, nil when they are not all within the file or not read.
        func bytes(at offset: UInt64, _ count: Int) -> [UInt8]? {
            let end = offset.addingReportingOverflow(UInt64(count))
            guard count >= 0, !end.overflow, end.partialValue <= size else { return nil }
            return count == 0 ? [] : read(offset, count)
        }

        /// The same at `base` + `offset`, or a ``Problem`` naming `what`.
        func require(at base: UInt64, plus offset: UInt64 = 0, _ count: Int, _ what: String) throws(Problem)
            -> [UInt8]
        {
            let start = base.addingReportingOverflow(offset)
            guard !start.overflow, let bytes = bytes(at: start.partialValue, count) else {
                throw Problem(
                    .malformed, "\(what) lies outside the file (\(size) bytes): truncated or not a real ELF file")
            }
            return bytes
        }

        /// The NUL-ended string at `base` + `offset`, at most ``ELFLinkage/maxStringBytes``.
        func string(at base: UInt64, plus offset: UInt64) throws(Problem) -> String {
            let start = base.addingReportingOverflow(offset)
            guard !start.overflow, start.partialValue < size else {
                throw Problem(.malformed, "a string of its dynamic section lies outside the file")
            }
            let count = Int(min(UInt64(ELFLinkage.maxStringBytes) + 1, size - start.partialValue))
            guard let bytes = bytes(at: start.partialValue, count), let end = bytes.firstIndex(of: 0) else {
                throw Problem(
                    .tooLarge, "a string of its dynamic section has no end within \(ELFLinkage.maxStringBytes) bytes")
            }
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}

extension [UInt8] {
    /// The little-endian unsigned integers at `offset` (the caller read enough bytes).
    fileprivate func u16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    fileprivate func u32(_ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }
    fileprivate func u64(_ offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(self[offset + $1]) << (8 * $1) }
    }
}

extension ErrorKind where Domain == ELFLinkage.Problem {
    /// The file could not be opened or examined.
    package static var unreadable: Self { Self("unreadable") }
    /// An ELF file other than 64-bit little-endian, which the supervisor does not read.
    package static var unsupported: Self { Self("unsupported") }
    /// A count or size over a bound the supervisor reads.
    package static var tooLarge: Self { Self("tooLarge") }
    /// Offsets or strings that lie outside the file, or headers that cannot be right.
    package static var malformed: Self { Self("malformed") }
}
