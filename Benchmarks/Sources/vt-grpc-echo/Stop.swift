import Foundation

/// Stops the program with `message` on standard error.
func stop(_ message: String) -> Never {
    FileHandle.standardError.write(Data("vt-grpc-echo: \(message)\n".utf8))
    exit(1)
}
