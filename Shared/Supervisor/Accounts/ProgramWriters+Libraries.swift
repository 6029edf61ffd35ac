#if canImport(Glibc)
import Glibc
import VerticalsSupervisorClient
#endif
import VerticalsWire

/// Libraries are programs: the loader runs code from every folder on a program's `DT_RUNPATH`
/// and `DT_RPATH` before `main`, and from its interpreter (`PT_INTERP`) before that, so each
/// must pass the rule the program's own folder passes (``ProgramWriters``), or the program is
/// refused, naming the folder. A RUNPATH naming a folder an ordinary user owns would otherwise
/// run that user's library constructor as the vertical.
///
/// Read from the ELF file itself (``ELFLinkage``): `$ORIGIN` (and `${ORIGIN}`) is the object's
/// own folder; `$LIB` and `$PLATFORM` are each of what they may stand for here, all checked. A
/// `DT_RPATH` is inherited by the libraries the object loads, and a library found on a checked
/// folder may name folders of its own, so those libraries are read too, at most
/// ``maxLibraries`` of them.
extension ProgramWriters {
    /// Libraries read past the program itself at most; past it, the program is refused.
    static let maxLibraries = 64

    /// What `$LIB` may stand for (glibc's library folder name, by distribution).
    static let libFolders = ["lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"]

    /// Why someone other than root and `uid` could change code the loader brings in with the
    /// program at `real` (its resolved path), or nil (also for a script, which is not ELF).
    static func libraryProblem(of real: String, uid: UInt32) -> String? {
        var pending: [(object: String, inherited: [String])] = [(real, [])]
        var read: Set<String> = [real]
        var checked: Set<String> = []
        while let (object, inherited) = pending.popLast() {
            let linkage: ELFLinkage
            do {
                guard let found = try ELFLinkage.read(object) else { continue }
                linkage = found
            } catch {
                return "\(object): cannot read its ELF headers (\(error)); a program whose libraries cannot be "
                    + "checked is not run"
            }
            if object == real, let interpreter = linkage.interpreter, let problem = pathProblem(interpreter, uid: uid) {
                return "\(real)'s interpreter (PT_INTERP) \(interpreter): \(problem)"
            }
            var own: [String] = []
            var rpath: [String] = []
            for (entries, tag) in [(linkage.runpath, "DT_RUNPATH"), (linkage.rpath, "DT_RPATH")] {
                for entry in entries {
                    let folders: [String]
                    switch expand(entry, origin: folder(of: object)) {
                    case .failure(let why): return "\(object)'s \(tag) entry \"\(entry)\" \(why.message)"
                    case .success(let expanded): folders = expanded
                    }
                    for folder in folders where checked.insert(folder).inserted {
                        if let problem = folderProblem(folder, of: real, uid: uid) {
                            return "\(real) loads libraries from \(folder) (\(tag) of \(object)): \(problem)"
                                + toolchainHint(folder)
                        }
                    }
                    own += folders
                    if tag == "DT_RPATH" { rpath += folders }
                }
            }
            // Where this object's own libraries are looked for; searched wide (its RPATH is
            // inherited, its RUNPATH not): reading one library too many costs nothing here.
            let search = own + inherited
            for name in linkage.needed where !name.contains("/") {
                for folder in search {
                    let candidate = "\(folder)/\(name)"
                    var info = stat()
                    guard stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                    guard read.insert(candidate).inserted else { continue }
                    guard read.count <= maxLibraries + 1 else {
                        return "\(real) loads more than \(maxLibraries) libraries from its own folders, more than "
                            + "the supervisor reads"
                    }
                    pending.append((candidate, inherited + rpath))
                }
            }
        }
        return nil
    }

    /// Why someone other than root and `uid` could change `folder` or a file in it, or nil. A
    /// folder that is not there passes when the nearest one above it that is passes as a last
    /// entry would (no one else could make it).
    static func folderProblem(_ folder: String, of program: String, uid: UInt32) -> String? {
        var existing = folder
        var info = stat()
        while stat(existing, &info) != 0 {
            guard errno == ENOENT || errno == ENOTDIR, existing != "/" else {
                return "\(existing): \(SupervisorError.errnoText())"
            }
            let parent = self.folder(of: existing)
            existing = parent.isEmpty ? "/" : parent
        }
        if let problem = pathProblem(existing, uid: uid) { return problem }
        guard existing == folder else { return nil }
        return filesProblem(in: folder, of: program, uid: uid)
    }

    /// Why an entry of a search path cannot be checked: its ``code`` is `empty`,
    /// `unknownVariable` or `relative`.
    struct EntryProblem: CodedError {
        /// What kind of problem it is.
        typealias Code = ErrorKind<EntryProblem>

        /// What kind of problem it is.
        let code: Code
        /// What is wrong with it, in words, after its quoted text.
        let message: String
    }

    /// The folders `entry` of a search path stands for, with `origin` the object's folder.
    static func expand(_ entry: String, origin: String) -> Result<[String], EntryProblem> {
        guard !entry.isEmpty else {
            return .failure(
                EntryProblem(code: .empty, message: "is empty, which the loader reads as the working folder"))
        }
        var results = [entry]
        for (names, values) in [
            (["$ORIGIN", "${ORIGIN}"], [origin.isEmpty ? "/" : origin]), (["$LIB", "${LIB}"], libFolders),
            (["$PLATFORM", "${PLATFORM}"], [machine()]),
        ] {
            results = results.flatMap { text in
                names.contains(where: { text.contains($0) })
                    ? values.map { value in names.reduce(text) { $0.replacing($1, with: value) } } : [text]
            }
        }
        if let other = results.first(where: { $0.contains("$") }) {
            return .failure(
                EntryProblem(
                    code: .unknownVariable, message: "names a variable (\(other)) the supervisor does not expand"))
        }
        guard results.allSatisfy({ $0.hasPrefix("/") }) else {
            return .failure(
                EntryProblem(code: .relative, message: "is relative, which the loader reads from the working folder"))
        }
        return .success(results)
    }

    /// The machine's name, what `$PLATFORM` stands for (`x86_64`).
    private static func machine() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "x86_64" }
        return withUnsafeBytes(of: names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// What to do when `folder` is a toolchain in a user's home, as swiftly installs one.
    private static func toolchainHint(_ folder: String) -> String {
        guard folder.hasPrefix("/home/") || folder.hasPrefix("/root/") || folder.contains("swiftly") else { return "" }
        return ". A debug build links the Swift libraries of its toolchain by RUNPATH, and a toolchain in a "
            + "user's home (swiftly) is that user's: build with `make install` (release, Swift's libraries "
            + "linked in), or unpack the toolchain where only root writes (/opt/swift)"
    }
}

extension ErrorKind where Domain == ProgramWriters.EntryProblem {
    /// The entry is empty, which the loader reads as the working folder.
    static var empty: Self { Self("empty") }
    /// The entry names a variable the supervisor does not expand.
    static var unknownVariable: Self { Self("unknownVariable") }
    /// The entry is relative, which the loader reads from the working folder.
    static var relative: Self { Self("relative") }
}
