/// A failure the CLI reports on standard error with its own exit status.
package struct CLIError: Error, CustomStringConvertible {
    package let status: Int32
    package let description: String

    package init(status: Int32, _ description: String) {
        self.status = status
        self.description = description
    }
}
