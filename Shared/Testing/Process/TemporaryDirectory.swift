import Foundation
import Glibc

/// A short-pathed temporary directory (`/tmp/vt.XXXXXX`), removed with everything in it.
/// Short, because a Unix socket path must fit in 107 bytes.
public final class TemporaryDirectory {
    public let path: String

    public init() {
        var template = Array("/tmp/vt.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func file(_ name: String) -> String { "\(path)/\(name)" }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
