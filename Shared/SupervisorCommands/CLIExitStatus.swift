import VerticalsContract

/// Every status `svc-supervisor` and `svc-supervisor-engine` exit with (sysexits(3) where it has a
/// name): the one list the manual's exit statuses are written from (``sentence``). A test fails when
/// a command exits with a status this list lacks.
package enum CLIExitStatus {
    /// The statuses, in order.
    package static let all: [ExitStatusMeaning] = [
        ExitStatusMeaning(0, "success"),
        ExitStatusMeaning(
            1,
            "what was asked did not happen: a vertical answered with an error, a service did not start, "
                + "a file could not be written"),
        ExitStatusMeaning(
            2,
            "`can-i-deploy`: no, and `upgrade`: refused, as the new build breaks a running caller or callee (each edge is named)"
        ),
        ExitStatusMeaning(3, "`status`: a service is failed"),
        ExitStatusMeaning(
            4, "`can-i-deploy`: no answer, as a vertical could not be reached or described and no edge breaks"),
        ExitStatusMeaning(64, "EX_USAGE", "bad usage, or an unknown service, operation or input"),
        ExitStatusMeaning(65, "EX_DATAERR", "an invalid manifest"),
        ExitStatusMeaning(66, "EX_NOINPUT", "no such log file"),
        ExitStatusMeaning(
            69, "EX_UNAVAILABLE", "nothing answers (no supervisor, a vertical down), or no svc-supervisor-engine"),
        ExitStatusMeaning(70, "EX_SOFTWARE", "an internal error"),
        ExitStatusMeaning(71, "EX_OSERR", "the system failed it (the working folder cannot be read)"),
        ExitStatusMeaning(73, "EX_CANTCREAT", "a file or folder cannot be created"),
        ExitStatusMeaning(74, "EX_IOERR", "a stored login cannot be read or removed"),
        ExitStatusMeaning(75, "EX_TEMPFAIL", "try again later"),
        ExitStatusMeaning(76, "EX_PROTOCOL", "a daemon answered what this program cannot read"),
        ExitStatusMeaning(77, "EX_NOPERM", "not logged in"),
        ExitStatusMeaning(78, "EX_CONFIG", "neither XDG_STATE_HOME nor HOME places the stored login"),
    ]

    /// The statuses as one paragraph, for `--help` and the manual pages.
    package static var sentence: String { "Exit status: " + ExitStatusMeaning.sentence(all) }

    /// How a daemon's exit status reads, for `up`'s help: ``DaemonExitStatus/all``.
    package static var daemonSentence: String {
        "A service's daemon exits with: " + ExitStatusMeaning.sentence(DaemonExitStatus.all)
    }
}
