/// libFuzzer's entry for a program that has its own `main` (LLVM 11+).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The input callback of a fuzz target: the bytes libFuzzer made, and 0.
public typealias FuzzInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer with the process's arguments over `callback`.
///
/// SwiftPM links each executable target with `main` defined as `<module>_main` (so tests may
/// link executables), which leaves libFuzzer's own `main` out; each target therefore defines
/// `<module>_main` and hands over here.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ callback: FuzzInput
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, callback)
}
