extension LineCodec {
    /// What the chain of a log needs from a valid stored line.
    package struct RecordKeys: Sendable, Hashable {
        /// Where the line's `prev` is.
        package enum Prev: Sendable, Hashable {
            /// The 64 hex digits are these bytes of the line (no escapes).
            case bytes(Range<Int>)
            /// Written with escapes: the unescaped text.
            case text(String)
        }
        /// The line's `seq`.
        package var seq: Int
        /// The line's `id`.
        package var id: String
        /// Whether it is a newer-version line.
        package var isNewer: Bool
        /// Its `prev`.
        package var prev: Prev
    }

    /// Checks a stored line exactly as ``decodeRecord(_:)-(UnsafeRawBufferPointer)``
    /// does (same rules, same order, same errors) without making the record's
    /// strings, and returns what the chain needs: for reading lines whose
    /// record nobody keeps (`verify`, other learners' lines in `state`).
    package static func checkRecord(_ line: UnsafeRawBufferPointer) throws(EventError) -> RecordKeys {
        try LineDecoder.keys(line)
    }
}
