/// Parses a whole JSON document (a file such as a catalog, not a log line):
/// UTF-8 without BOM, any JSON whitespace between tokens, LF and CR included.
///
/// Added for the Projections module's `--catalog`; it reuses the log's strict
/// scanner (no duplicate member names, bounded nesting) and reports positions
/// as line and column of the document.
package enum JSONDocument {
    /// Parses `bytes` as one JSON value.
    package static func parse(_ bytes: [UInt8]) throws(EventError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw EventError(.encoding, "the document starts with a byte order mark (BOM) (line 1, column 1)", offset: 0)
        }
        try validateUTF8(bytes)
        // JSON whitespace is space, tab, LF and CR; the line scanner knows the
        // first two. LF and CR outside strings become spaces (same length, so
        // offsets stay true); inside strings they are left for the scanner to refuse.
        var flat = bytes
        var inString = false
        var escaped = false
        for i in flat.indices {
            let c = flat[i]
            if inString {
                if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
            } else if c == UInt8(ascii: "\"") {
                inString = true
            } else if c == 0x0A || c == 0x0D {
                flat[i] = 0x20
            }
        }
        let result = flat.withUnsafeBytes { buffer in
            Result { () throws(EventError) -> JSONValue in try JSONScanner.parse(buffer) }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw relocated(error, in: bytes)
        }
    }

    /// The 1-based line and column (in bytes) of a byte offset.
    package static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }

    private static func validateUTF8(_ bytes: [UInt8]) throws(EventError) {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return
            case .error:
                let (line, column) = position(of: offset, in: bytes)
                throw EventError(.encoding, "invalid UTF-8 (line \(line), column \(column))", offset: offset)
            }
        }
    }

    /// The scanner names columns of a single line; name the document's line and column instead.
    private static func relocated(_ error: EventError, in bytes: [UInt8]) -> EventError {
        var copy = error
        guard let offset = error.offset else { return copy }
        let (line, column) = position(of: offset, in: bytes)
        for suffix in [" (column \(offset + 1))", " (at the end of the line)"] where copy.rule.hasSuffix(suffix) {
            copy.rule = String(copy.rule.dropLast(suffix.count))
        }
        copy.rule += offset < bytes.count ? " (line \(line), column \(column))" : " (at the end of the document)"
        return copy
    }
}
