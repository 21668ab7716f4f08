// PostgreSQL's client library, libpq (Debian's libpq-dev), for
// `serve --store postgresql://…` (docs/scaling.md). Only
// Sources/LedgerServer/Postgres/PGConnection.swift calls it.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
