"""Schemathesis hooks for docs/openapi.yaml (.ci/run): how to send a push's
body, `application/x-ndjson` (JSON lines), which schemathesis has no
serializer for: the generated string's UTF-8 bytes, as they are."""
import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")


@schemathesis.hook
def map_query(ctx, query):
    """`wait=` holds a request up to 60 s until a push arrives: generated
    waits are sent as 0 so the run stays short (the waiting itself is tested
    in Tests/CLITests/ServeStoreTests.swift)."""
    if isinstance(query, dict) and isinstance(query.get("wait"), int) and query["wait"] > 0:
        query["wait"] = 0
    return query
