import Glibc

/// What vt-testd answers as a compute process (`ComputeProcesses.serve`), for ComputeProcessesTests:
/// `fail:REASON` throws REASON, `exit` ends the process before it answers, `long` answers more than
/// a message may hold, and anything else comes back reversed.
enum TestCompute {
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    static func answer(_ request: [UInt8]) throws -> [UInt8] {
        let text = String(decoding: request, as: UTF8.self)
        if text.hasPrefix("fail:") { throw Refused(description: String(text.dropFirst(5))) }
        if text == "exit" { exit(3) }
        if text == "long" { return [UInt8](repeating: 7, count: 100_000) }
        return request.reversed()
    }
}
