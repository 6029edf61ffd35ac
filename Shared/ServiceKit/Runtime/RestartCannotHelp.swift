/// An error that stops a daemon from starting for a reason no restart can mend: a setting it
/// refuses, a store that belongs to another vertical. A World that fails to build with one
/// exits `DaemonExitStatus.restartCannotHelp` (78), which both supervisors leave stopped
/// instead of spending the restart budget on it.
///
/// ```swift
/// struct SettingsError: Error, RestartCannotHelp { … }
/// ```
public protocol RestartCannotHelp: Error {}
