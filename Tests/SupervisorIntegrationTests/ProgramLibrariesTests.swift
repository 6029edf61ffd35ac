import Glibc
import Testing
import VerticalsTesting
@testable import VerticalsSupervisor

/// Libraries are programs: the program check reads the ELF file (``ELFLinkage``) and holds its
/// interpreter and every folder on its `DT_RUNPATH`/`DT_RPATH` to the rule its own folder passes
/// (``ProgramWriters``); a hostile header is refused, never a crash or a long read.
@Suite(.blocking) struct ProgramLibrariesTests {
    /// An ordinary user's uid, and another's: the service's user, and someone else.
    static let serviceUID: UInt32 = 4242
    static let otherUID: UInt32 = 4243

    /// A small 64-bit little-endian ELF file: one PT_LOAD over the whole file at address 0, an
    /// optional PT_INTERP, and a PT_DYNAMIC whose string table holds `runpath` and `needed`.
    static func elf(interpreter: String? = nil, runpath: String? = nil, rpath: String? = nil, needed: [String] = [])
        -> [UInt8]
    {
        var strings: [UInt8] = [0]
        var dynamic: [(UInt64, UInt64)] = []
        func add(_ text: String, tag: UInt64) {
            dynamic.append((tag, UInt64(strings.count)))
            strings += Array(text.utf8) + [0]
        }
        for name in needed { add(name, tag: 1) }
        if let runpath { add(runpath, tag: 29) }
        if let rpath { add(rpath, tag: 15) }
        let interp: [UInt8] = interpreter.map { Array($0.utf8) + [0] } ?? []
        let headers = interpreter == nil ? 2 : 3
        let interpOffset = 64 + 56 * headers
        let stringsOffset = interpOffset + interp.count
        let dynamicOffset = stringsOffset + strings.count
        dynamic.insert((5, UInt64(stringsOffset)), at: 0)
        dynamic.append((0, 0))
        let total = dynamicOffset + 16 * dynamic.count
        var bytes: [UInt8] = []
        func put(_ value: UInt64, _ size: Int) {
            bytes += (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        bytes += [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 8)
        put(3, 2); put(62, 2); put(1, 4); put(0, 8) // e_type, e_machine, e_version, e_entry
        put(64, 8); put(0, 8); put(0, 4); put(64, 2) // e_phoff, e_shoff, e_flags, e_ehsize
        put(56, 2); put(UInt64(headers), 2); put(64, 2); put(0, 2); put(0, 2) // phentsize, phnum, sh…
        func header(_ type: UInt64, _ offset: Int, _ size: Int) {
            put(type, 4); put(4, 4); put(UInt64(offset), 8); put(UInt64(offset), 8); put(UInt64(offset), 8)
            put(UInt64(size), 8); put(UInt64(size), 8); put(8, 8)
        }
        header(1, 0, total)
        if interpreter != nil { header(3, interpOffset, interp.count) }
        header(2, dynamicOffset, 16 * dynamic.count)
        bytes += interp + strings
        for (tag, value) in dynamic { put(tag, 8); put(value, 8) }
        return bytes
    }

    static func parse(_ bytes: [UInt8]) throws(ELFLinkage.Problem) -> ELFLinkage? {
        try ELFLinkage.parse(size: UInt64(bytes.count)) { offset, count in
            Array(bytes[Int(offset)..<Int(offset) + count])
        }
    }

    /// A root-owned folder `bin` (0755) in `directory` holding `bytes` as `program` (0755).
    static func install(_ bytes: [UInt8], in directory: TemporaryDirectory) -> String {
        chmod(directory.path, 0o755)
        let bin = directory.file("bin")
        mkdir(bin, 0o755)
        let program = "\(bin)/program"
        let fd = open(program, O_CREAT | O_WRONLY | O_TRUNC, 0o755)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return program
    }

    /// A folder under /tmp that the other user owns (mode 0755), with a short path.
    static func othersFolder() throws -> String {
        var template = Array("/tmp/vt.XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        let folder = String(cString: made)
        try #require(chown(folder, otherUID, otherUID) == 0)
        chmod(folder, 0o755)
        return folder
    }

    @Test func parse_readsInterpreterRunpathRpathAndNeeded() throws {
        let linkage = try Self.parse(
            Self.elf(interpreter: "/lib64/ld-linux-x86-64.so.2", runpath: "$ORIGIN:/opt/x", needed: ["libc.so.6"]))
        #expect(linkage?.interpreter == "/lib64/ld-linux-x86-64.so.2")
        #expect(linkage?.runpath == ["$ORIGIN", "/opt/x"])
        #expect(linkage?.rpath == [])
        #expect(linkage?.needed == ["libc.so.6"])
        #expect(try Self.parse(Array("#!/bin/sh\n".utf8)) == nil, "a script is not ELF")
    }

    @Test func parse_ofATruncatedOrLyingFile_throwsAProblem_neverCrashes() throws {
        let good = Self.elf(interpreter: "/lib64/ld.so", runpath: "/opt/x", needed: ["liba.so"])
        for length in [5, 40, 64, 100, good.count - 20] {
            #expect(throws: ELFLinkage.Problem.self, "truncated to \(length)") {
                try Self.parse(Array(good.prefix(length)))
            }
        }
        var thirtyTwo = good
        thirtyTwo[4] = 1
        #expect(throws: ELFLinkage.Problem.self) { try Self.parse(thirtyTwo) }
        var manyHeaders = good
        manyHeaders[56] = 0xFF
        manyHeaders[57] = 0xFF
        #expect(throws: ELFLinkage.Problem.self) { try Self.parse(manyHeaders) }
        var farOffset = good
        for index in 32..<40 { farOffset[index] = 0xFF } // e_phoff near UInt64.max
        #expect(throws: ELFLinkage.Problem.self) { try Self.parse(farOffset) }
        // Every single byte changed, one at a time, to each of a few values: an answer or a
        // Problem every time, and every read within the file.
        for index in 0..<good.count {
            for value: UInt8 in [0, 0x7F, 0xFF] {
                var bytes = good
                bytes[index] = value
                _ = try? Self.parse(bytes)
            }
        }
    }

    @Test func expand_originLibAndPlatform_andRefusesEmptyOrRelativeEntries() throws {
        #expect(try ProgramWriters.expand("$ORIGIN/../lib", origin: "/opt/a/bin").get() == ["/opt/a/bin/../lib"])
        #expect(try ProgramWriters.expand("${ORIGIN}", origin: "/opt/a").get() == ["/opt/a"])
        #expect(try ProgramWriters.expand("/usr/$LIB", origin: "/").get().contains("/usr/lib/x86_64-linux-gnu"))
        #expect(try ProgramWriters.expand("/p/$PLATFORM", origin: "/").get().allSatisfy { !$0.contains("$") })
        #expect(throws: (any Error).self) { try ProgramWriters.expand("", origin: "/").get() }
        #expect(throws: (any Error).self) { try ProgramWriters.expand("lib", origin: "/").get() }
        #expect(throws: (any Error).self) { try ProgramWriters.expand("$HOME/lib", origin: "/").get() }
    }

    @Test func runpathNamingAnotherUsersFolder_isRefused_namingIt() throws {
        guard geteuid() == 0 else {
            print("skipped: giving a folder to another user needs root")
            return
        }
        let directory = TemporaryDirectory()
        let others = try Self.othersFolder()
        defer { rmdir(others) }
        for (runpath, rpath) in [(others, nil), (nil, others), ("$ORIGIN:\(others)/sub", nil)] as [(String?, String?)] {
            let program = Self.install(Self.elf(runpath: runpath, rpath: rpath, needed: ["libx.so"]), in: directory)
            let problem = ProgramWriters.problem(program, uid: Self.serviceUID)
            #expect(problem?.contains("loads libraries from \(others)") == true, "\(problem ?? "passed")")
            #expect(problem?.contains("belongs to uid \(Self.otherUID)") == true, "\(problem ?? "passed")")
        }
        let interpreted = Self.install(Self.elf(interpreter: "\(others)/ld.so"), in: directory)
        let file = open("\(others)/ld.so", O_CREAT | O_WRONLY, 0o755)
        close(file)
        defer { unlink("\(others)/ld.so") }
        let problem = ProgramWriters.problem(interpreted, uid: Self.serviceUID)
        #expect(problem?.contains("interpreter (PT_INTERP) \(others)/ld.so") == true, "\(problem ?? "passed")")
        // A debug build linked against a toolchain in that user's home (swiftly's place).
        let swiftly = Self.install(Self.elf(runpath: "\(others)/.local/share/swiftly/usr/lib/swift"), in: directory)
        #expect(ProgramWriters.problem(swiftly, uid: Self.serviceUID)?.contains("swiftly") == true)
    }

    @Test func builtProgram_passes_andItsCopyWithARunpathToAUsersFolder_isRefused() throws {
        guard geteuid() == 0 else {
            print("skipped: giving a folder to another user needs root")
            return
        }
        var bytes = try #require(readFileBytes("\(DaemonProcess.productsDirectory)/vt-testd"))
        let directory = TemporaryDirectory()
        let program = Self.install(bytes, in: directory)
        #expect(ProgramWriters.problem(program, uid: Self.serviceUID) == nil, "the built program as it is")

        // Its RUNPATH rewritten in place to name the other user's folder (as patchelf would).
        let runpath = try #require(try ELFLinkage.read(program)?.runpath.joined(separator: ":"))
        let others = try Self.othersFolder()
        defer { rmdir(others) }
        let old = Array(runpath.utf8) + [0]
        let new = Array(others.utf8)
        try #require(new.count < old.count, "\(others) is longer than the RUNPATH \(runpath)")
        let at = try #require(
            (0...(bytes.count - old.count)).first { bytes[$0] == old[0] && Array(bytes[$0..<$0 + old.count]) == old })
        bytes.replaceSubrange(at..<at + old.count, with: new + [UInt8](repeating: 0, count: old.count - new.count))
        let patched = Self.install(bytes, in: directory)
        #expect(try ELFLinkage.read(patched)?.runpath == [others])
        let problem = ProgramWriters.problem(patched, uid: Self.serviceUID)
        #expect(problem?.contains("loads libraries from \(others)") == true, "\(problem ?? "passed")")
    }
}
