import Events

/// One complete line of a log, as the reader hands it to its callback.
///
/// `bytes` points into the reader's buffer: it is valid only during the
/// callback (copy it with ``copyBytes()`` to keep it).
package struct LogLine {
    /// The 1-based line number.
    package let number: Int
    /// The byte offset of the line's first byte in the file.
    package let offset: Int
    /// The line's length in bytes, without its LF.
    package let length: Int
    /// The line's bytes without the LF; empty for a line over 1 MiB (never buffered).
    /// Valid only during the callback.
    package let bytes: UnsafeRawBufferPointer
    /// The decoded line, or why it breaks the format (with `line` set).
    package let record: Result<Record, EventError>

    init(_ scanned: ScannedLine, record: Result<Record, EventError>) {
        number = scanned.number; offset = scanned.offset; length = scanned.length
        bytes = scanned.bytes; self.record = record
    }

    /// The SHA-256 of the line's bytes (what the next line's `prev` must be).
    package func sha256() -> SHA256.Digest { SHA256.hash(bytes) }

    /// A copy of the line's bytes, to keep after the callback.
    package func copyBytes() -> [UInt8] { Array(bytes) }
}

extension ScannedLine {
    /// Decodes the line; a too-long line is a `line_too_long` error.
    func decode() -> Result<Record, EventError> {
        guard !isTooLong else {
            return .failure(EventError(.lineTooLong,
                                       "the line is \(length) bytes; at most \(LineCodec.maxLineLength) are allowed",
                                       line: number))
        }
        do {
            return .success(try LineCodec.decodeRecord(bytes))
        } catch {
            return .failure(error.at(line: number))
        }
    }
}
