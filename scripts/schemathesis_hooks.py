"""Schemathesis hooks for docs/openapi.yaml (.ci/run): how to send a push's
body, `application/x-ndjson` (JSON lines), which schemathesis has no
serializer for: the generated string's UTF-8 bytes, as they are."""
import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")
