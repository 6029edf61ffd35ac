// vt-contracts: the reference suite's contract tool (`make contracts-check`, `make contracts-update`):
// the library's ContractsTool over IOInterface's contracts. A product's tool is these lines with its own module.
import IOInterface
import VerticalsContractTesting

ContractsTool.main(contracts: Contracts.all)
