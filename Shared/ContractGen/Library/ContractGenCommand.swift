#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `vt-contractgen --output DIR FILE.vcontract…`: the generator's command line. Writes
/// `DIR/FILE.vcontract.swift` for each file, or prints every `file:line:col: error: …` and
/// fails. VerticalsContractPlugin runs it on every build of a target holding contract files.
///
/// `vt-contractgen --list FILE.swift FILE.vcontract…` writes instead one file declaring
/// `Contracts.all`, every contract of the files in name order (``ContractList``), for
/// VerticalsContractListPlugin.
///
/// The executable's `main` is C (`Tool/main.c`) and calls ``run(_:)`` through
/// `vt_contractgen_main`; why: see there.
public enum ContractGenCommand {
    /// Runs the command with `arguments` (without the program name); returns the exit status:
    /// 0, 1 for errors in the contracts, 64 for bad usage, 66/73 for files it cannot read or write.
    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "--list" { return list(Array(arguments.dropFirst())) }
        guard arguments.count >= 2, arguments[0] == "--output" else {
            return fail(
                "usage: vt-contractgen --output DIR FILE.vcontract... | --list FILE.swift FILE.vcontract...", 64)
        }
        let output = arguments[1]
        let paths = Array(arguments.dropFirst(2))
        if mkdir(output, 0o755) != 0 && errno != EEXIST {
            return fail("error: cannot create \(output): \(String(cString: strerror(errno)))", 73)
        }
        var inputs: [ContractGenerator.Input] = []
        for path in paths {
            guard let text = read(path) else {
                return fail("error: cannot read \(path): \(String(cString: strerror(errno)))", 66)
            }
            inputs.append(ContractGenerator.Input(path: path, text: text))
        }
        switch ContractGenerator.generate(inputs) {
        case .failure(let failure):
            return fail(failure.description, 1)
        case .success(let sources):
            for (path, source) in zip(paths, sources) {
                let target = output + "/" + ContractGenerator.outputName(for: path)
                guard writeIfChanged(source, to: target) else { return fail("error: cannot write \(target)", 73) }
            }
            return 0
        }
    }

    /// `--list FILE.swift FILE.vcontract…`: `Contracts.all` of the contract files, in `FILE.swift`.
    private static func list(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2 else {
            return fail("usage: vt-contractgen --list FILE.swift FILE.vcontract...", 64)
        }
        var files: [ContractFile] = []
        for path in arguments.dropFirst() {
            guard let text = read(path) else {
                return fail("error: cannot read \(path): \(String(cString: strerror(errno)))", 66)
            }
            do {
                files.append(try ContractParser.parse(text, path: path))
            } catch {
                return fail(error.description, 1)
            }
        }
        guard writeIfChanged(ContractList.swift(for: files), to: arguments[0]) else {
            return fail("error: cannot write \(arguments[0])", 73)
        }
        return 0
    }

    private static func fail(_ message: String, _ status: Int32) -> Int32 {
        let bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        return status
    }

    private static func read(_ path: String) -> String? {
        guard let handle = fopen(path, "rb") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, handle)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to `path` unless it already holds exactly that, so that an unchanged
    /// contract does not make the compiler redo the module.
    private static func writeIfChanged(_ text: String, to path: String) -> Bool {
        if read(path) == text { return true }
        guard let handle = fopen(path, "wb") else { return false }
        let bytes = Array(text.utf8)
        let written = fwrite(bytes, 1, bytes.count, handle)
        return fclose(handle) == 0 && written == bytes.count
    }
}

/// The C entry point of `vt-contractgen` (`Tool/main.c`): runs ``ContractGenCommand``.
@_cdecl("vt_contractgen_main")
public func vtContractgenMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    let arguments = (1..<Int(argc)).map { String(cString: argv[$0]!) }
    return ContractGenCommand.run(arguments)
}
