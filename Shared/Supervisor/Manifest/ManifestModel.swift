import VerticalsManifest

// The manifest model lives in VerticalsManifest (Shared/Manifest), which the exports and the
// scaffold link without the engine, its TOML reader or its store. These names keep the model in
// scope for the engine's own files and for code that imports only VerticalsSupervisor, as
// before the model moved.

/// The suite as `deploy/suite.toml` declares it: VerticalsManifest's `VerticalsManifest/Manifest`.
public typealias Manifest = VerticalsManifest.Manifest
/// One supervised service: VerticalsManifest's `VerticalsManifest/ServiceSpec`.
public typealias ServiceSpec = VerticalsManifest.ServiceSpec
/// One thing wrong with a manifest: VerticalsManifest's `VerticalsManifest/ManifestError`.
public typealias ManifestError = VerticalsManifest.ManifestError
/// When a service is restarted: VerticalsManifest's `VerticalsManifest/RestartPolicy`.
public typealias RestartPolicy = VerticalsManifest.RestartPolicy
/// What else restarts with a service: VerticalsManifest's `VerticalsManifest/RestartStrategy`.
public typealias RestartStrategy = VerticalsManifest.RestartStrategy
/// When a service starts: VerticalsManifest's `VerticalsManifest/StartMode`.
public typealias StartMode = VerticalsManifest.StartMode
/// Exponential restart backoff: VerticalsManifest's `VerticalsManifest/Backoff`.
public typealias Backoff = VerticalsManifest.Backoff
/// A windowed restart budget: VerticalsManifest's `VerticalsManifest/RestartBudget`.
public typealias RestartBudget = VerticalsManifest.RestartBudget
/// How a service says it is ready: VerticalsManifest's `VerticalsManifest/Readiness`.
public typealias Readiness = VerticalsManifest.Readiness
/// The `daemon.health` check: VerticalsManifest's `VerticalsManifest/LivenessCheck`.
public typealias LivenessCheck = VerticalsManifest.LivenessCheck
/// Log rotation: VerticalsManifest's `VerticalsManifest/LogRotation`.
public typealias LogRotation = VerticalsManifest.LogRotation
/// rlimits, niceness and cgroup limits: VerticalsManifest's `VerticalsManifest/ResourceLimits`.
public typealias ResourceLimits = VerticalsManifest.ResourceLimits
/// What makes a service name valid: VerticalsManifest's `VerticalsManifest/ServiceName`.
public typealias ServiceName = VerticalsManifest.ServiceName
/// Durations, sizes and signals as a manifest writes them: VerticalsManifest's `VerticalsManifest/ManifestUnits`.
public typealias ManifestUnits = VerticalsManifest.ManifestUnits
/// Users and allow-lists from `depends_on`: VerticalsManifest's `VerticalsManifest/ServiceAccounts`.
public typealias ServiceAccounts = VerticalsManifest.ServiceAccounts
