import VerticalsServiceKit

/// What `--place-replica-copy` says once it is done, ending with status 0: ServiceKit answers
/// a ``StartFailure`` whose ``checkAnswer(service:stateDirectory:)`` is not nil instead of failing,
/// so the daemon prints it and stops without serving.
struct ReplicaCopyPlaced: StartFailure {
    /// What was done.
    let line: String

    func checkAnswer(service: String, stateDirectory: String) -> String? {
        "svc-\(service) --place-replica-copy: \(line)\n"
    }

    var restartCannotHelp: Bool { false }
}
