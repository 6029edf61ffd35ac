// vt-contractgen: `.vcontract` files in, Swift out (docs/CONTRACTS.md). Run by ContractPlugin on
// every build of a target that holds contract files; by hand:
//   vt-contractgen --output DIR FILE.vcontract...
// writes DIR/FILE.vcontract.swift for each, or prints `file:line:col: error: …` and exits 1.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ContractGen

func fail(_ message: String, status: Int32 = 64) -> Never {
    let bytes = Array((message + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

func read(_ path: String) -> String {
    guard let handle = fopen(path, "rb") else { fail("error: cannot read \(path): \(String(cString: strerror(errno)))", status: 66) }
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

/// Writes `text` to `path` unless it already holds exactly that (so an unchanged contract
/// does not make the compiler redo the module).
func writeIfChanged(_ text: String, to path: String) {
    if access(path, F_OK) == 0, read(path) == text { return }
    guard let handle = fopen(path, "wb") else { fail("error: cannot write \(path): \(String(cString: strerror(errno)))", status: 73) }
    let bytes = Array(text.utf8)
    let written = fwrite(bytes, 1, bytes.count, handle)
    if fclose(handle) != 0 || written != bytes.count { fail("error: cannot write \(path)", status: 73) }
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, arguments[0] == "--output" else {
    fail("usage: vt-contractgen --output DIR FILE.vcontract...")
}
let output = arguments[1]
let paths = Array(arguments.dropFirst(2))
if mkdir(output, 0o755) != 0 && errno != EEXIST {
    fail("error: cannot create \(output): \(String(cString: strerror(errno)))", status: 73)
}
let inputs = paths.map { ContractGenerator.Input(path: $0, text: read($0)) }
switch ContractGenerator.generate(inputs) {
case .failure(let failure):
    fail(failure.description, status: 1)
case .success(let sources):
    for (path, source) in zip(paths, sources) {
        writeIfChanged(source, to: output + "/" + ContractGenerator.outputName(for: path))
    }
}
