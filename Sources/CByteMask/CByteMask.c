// CByteMask is header-only (include/CByteMask.h); a C target needs one source file.
#include "CByteMask.h"
typedef int pl_cbytemask_translation_unit;
