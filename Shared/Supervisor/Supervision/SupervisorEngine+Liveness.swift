import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

// Liveness over the suite's own protocol: `daemon.health` on the service's socket, the same
// path as a request, so a daemon whose process lives but whose loop or handlers are stuck is
// found and restarted. All on the loop thread.
extension SupervisorEngine {
    /// Schedules the next check of a ready service with a `liveness` key, `interval` from now.
    func armLiveness(_ unit: ServiceUnit) {
        guard let check = unit.spec.liveness, unit.spec.socket, unit.state == .ready, let pid = unit.pid else { return }
        unit.livenessTimer.start(after: check.interval) { [weak unit] in
            guard let unit, unit.state == .ready, unit.pid == pid else { return }
            self.checkLiveness(self.healthClient, service: unit.spec.name, pid: pid, check)
        }
    }

    /// Calls `daemon.health` in a task of its own. The task is nonisolated, as the client's call
    /// is, and runs on the loop thread (its preferred executor), where it enters the engine with
    /// the answer and looks the unit up again by name.
    private nonisolated func checkLiveness(_ client: ServiceClient, service: String, pid: Int32, _ check: LivenessCheck)
    {
        Task(executorPreference: loop) { [weak self] in
            let failure: String?
            do {
                let body = try await client.callRaw(
                    service: service, operation: Daemon.health.fullName, body: Empty().encodedBody(),
                    timeout: check.timeout)
                _ = try Daemon.Health(decoding: body)
                failure = nil
            } catch let error as ServiceError {
                failure =
                    error.code == .deadlineExceeded
                    ? "no answer to \(Daemon.health.fullName) within \(ServiceUnit.text(check.timeout))"
                    : "\(Daemon.health.fullName) failed: \(error.code): \(error.message)"
            } catch {
                failure = "\(Daemon.health.fullName) answered with a body that is not daemon.Health: \(error)"
            }
            self?.livenessAnswered(service: service, pid: pid, check, failure: failure)
        }
    }

    /// The check's answer, on the loop thread: enters the engine there, without a hop (a
    /// synchronous function, where `assumeIsolated` checks that this is the loop thread).
    private nonisolated func livenessAnswered(service: String, pid: Int32, _ check: LivenessCheck, failure: String?) {
        assumeIsolated { engine in
            guard let unit = engine.units[service] else { return }
            engine.livenessChecked(unit, pid: pid, check, failure: failure)
        }
    }

    private func livenessChecked(_ unit: ServiceUnit, pid: Int32, _ check: LivenessCheck, failure: String?) {
        // The process the check was about may be gone, stopping or replaced by now.
        guard unit.state == .ready, unit.pid == pid else { return }
        // What a failed check says, with the last status the process gave: the words of its kill.
        let status = unit.statusText.isEmpty ? "" : "; last status: \(unit.statusText)"
        let said = failure.map { "liveness: \($0)\(status)" }
        if let failure {
            let count = unit.machine.livenessFailures + 1
            if count < check.failures { unit.log.note("liveness: \(failure) (\(count) of \(check.failures))") }
        }
        transition(unit) { $0.livenessChecked(failure: said, allowed: check.failures) }
    }
}
