// The system SQLite library (Apple's SDKs; Debian's libsqlite3-dev), for
// `import --from cryptogram DB` (docs/import.md).
#include <sqlite3.h>
