import Testing
/// Runs this build's svc-supervisor with `arguments` in `directory` as its working folder (the
/// harness runs commands in the checkout, whose deploy/suite.toml the CLI would read), with
/// `standardInput` on its standard input.
public func supervisorCLI(
    _ arguments: [String], environment: [String: String], standardInput: String, in directory: TemporaryDirectory,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> CommandResult {
    try runCommand(
        "/bin/sh",
        ["-c", "cd \"$0\" && exec \"$@\"", directory.path, "\(DaemonProcess.productsDirectory)/svc-supervisor"]
            + arguments,
        environment: environment, in: directory, standardInput: standardInput, sourceLocation: sourceLocation)
}
