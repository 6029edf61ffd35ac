/*
 * The framework release `svc-supervisor init` depends on when given no --framework-url, as the
 * framework's build was told it: `make release FRAMEWORK_URL=URL FRAMEWORK_VERSION=X.Y.Z` passes
 * them to the C compiler (-Xcc -D...), which is the one SwiftPM compiler that takes a value from
 * the command line without a file written into the checkout. Empty strings when not set.
 */
#ifndef VT_CFRAMEWORK_DEFAULTS_H
#define VT_CFRAMEWORK_DEFAULTS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The framework's git URL this build was made with, or "". */
const char *vt_framework_default_url(void);

/* The framework version (X.Y.Z) this build was made with, or "". */
const char *vt_framework_default_version(void);

#ifdef __cplusplus
}
#endif

#endif
