// The engine's users (tests, the engine program, products) see the client's types (RunDirectory,
// SuitePointer, RouteTable, DescribedContract, SupervisorError, …) through `import VerticalsSupervisor`,
// as before they moved to VerticalsSupervisorClient for the lean svc-supervisor.
@_exported import VerticalsSupervisorClient
