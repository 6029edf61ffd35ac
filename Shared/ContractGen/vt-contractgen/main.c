// vt-contractgen: `.vcontract` files in, Swift out (docs/CONTRACTS.md; the work is Swift, in
// ContractGen's ContractGenCommand). Run by ContractPlugin on every build; by hand:
//   vt-contractgen --output DIR FILE.vcontract...
//
// Why the entry point is C, and weak: SwiftPM builds a plugin's tool with the build's own
// compiler flags. scripts/fuzz.sh passes -sanitize=fuzzer to every compile, which links
// libFuzzer, and libFuzzer brings its own `main`; a Swift `main` would then be defined twice and
// the fuzz build would fail to link. A weak `main` gives way to libFuzzer's, which first calls
// LLVMFuzzerInitialize with the same arguments: the generator runs there and exits, so the tool
// does its job in a fuzz build too. In every other build this `main` is the only one.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int vt_contractgen_main(int argc, char **argv);

__attribute__((weak)) int main(int argc, char **argv) {
    return vt_contractgen_main(argc, argv);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    exit(vt_contractgen_main(*argc, *argv));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    (void)data;
    (void)size;
    return 0;
}
