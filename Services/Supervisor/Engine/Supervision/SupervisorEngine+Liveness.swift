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
        unit.livenessTimer.start(after: check.interval) { [weak self, weak unit] in
            guard let self, let unit, unit.state == .ready, unit.pid == pid else { return }
            self.checkLiveness(unit, pid: pid, check)
        }
    }

    private func checkLiveness(_ unit: ServiceUnit, pid: Int32, _ check: LivenessCheck) {
        let client = healthClient
        let service = unit.spec.name
        // The task captures names, not the loop-confined unit; it runs on the loop, then looks
        // the unit up again.
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
            guard let self else { return }
            self.loop.preconditionInEventLoop()
            guard let unit = self.units[service] else { return }
            self.livenessChecked(unit, pid: pid, check, failure: failure)
        }
    }

    private func livenessChecked(_ unit: ServiceUnit, pid: Int32, _ check: LivenessCheck, failure: String?) {
        // The process the check was about may be gone, stopping or replaced by now.
        guard unit.state == .ready, unit.pid == pid else { return }
        if let failure {
            let status = unit.statusText.isEmpty ? "" : "; last status: \(unit.statusText)"
            unit.livenessFailure = "liveness: \(failure)\(status)"
            let count = unit.machine.livenessFailures + 1
            if count < check.failures { unit.log.note("liveness: \(failure) (\(count) of \(check.failures))") }
        }
        transition(unit) { $0.livenessChecked(passed: failure == nil, allowed: check.failures) }
    }
}
