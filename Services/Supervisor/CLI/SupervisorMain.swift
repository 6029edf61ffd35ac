import ArgumentParser
import Glibc
import VerticalsServiceKit

/// svc-supervisor's entry point, and the one place its process exits.
///
/// `up` is the long-lived process: parsed and run here, synchronously, its engine on its own
/// loop (``UpCommand/serve()``). ArgumentParser's async `main` would run on libdispatch's
/// global queues, whose worker-pool monitor then wakes an idle supervisor every second for as
/// long as it runs. Every other command is short-lived and goes through that async `main`, which
/// prints help and errors and exits with their status (a thrown `ExitCode` is that mapping).
@main
enum SupervisorMain {
    static func main() {
        if let up = (try? SupervisorCommand.parseAsRoot()) as? UpCommand {
            exit(up.serve())
        }
        // Detached: `main` is the main actor's, whose queue nothing drains while this thread waits.
        let finished = BlockingResult<Void>()
        Task.detached {
            await SupervisorCommand.main()
            finished.set(())
        }
        finished.wait()
        exit(0)
    }
}
