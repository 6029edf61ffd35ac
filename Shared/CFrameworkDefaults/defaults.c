#include "CFrameworkDefaults.h"

#ifndef VT_FRAMEWORK_URL
#define VT_FRAMEWORK_URL ""
#endif
#ifndef VT_FRAMEWORK_VERSION
#define VT_FRAMEWORK_VERSION ""
#endif

const char *vt_framework_default_url(void) { return VT_FRAMEWORK_URL; }

const char *vt_framework_default_version(void) { return VT_FRAMEWORK_VERSION; }
