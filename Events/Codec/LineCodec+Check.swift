extension LineCodec {
    /// What the chain of a log needs from a valid stored line.
    package struct RecordKeys: Sendable, Hashable {
        /// Where a string member's value is.
        package enum Text: Sendable, Hashable {
            /// These bytes of the line (written without escapes).
            case bytes(Range<Int>)
            /// Written with escapes: the unescaped text.
            case text(String)

            /// The value, from the line the keys were read from.
            package func string(in line: UnsafeRawBufferPointer) -> String {
                switch self {
                case .bytes(let range): String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)
                case .text(let text): text
                }
            }
        }
        /// Where the line's `prev` is (its 64 hex digits).
        package typealias Prev = Text
        /// The line's `seq`.
        package var seq: Int
        /// The line's `id` (1 to 64 ASCII characters).
        package var id: Text
        /// Whether it is a newer-version line.
        package var isNewer: Bool
        /// Its `prev`.
        package var prev: Prev
        /// Its `user` (nil when it is not a string: only on a newer-version line).
        package var user: Text?

        /// Runs `body` with the UTF-8 bytes of a string member, from the line the keys were read from.
        package static func withBytes<R>(_ text: Text, in line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R {
            switch text {
            case .bytes(let range): return body(UnsafeRawBufferPointer(rebasing: line[range]))
            case .text(var text): return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
            }
        }
    }

    /// Checks a stored line exactly as ``decodeRecord(_:)-(UnsafeRawBufferPointer)``
    /// does (same rules, same order, same errors) without making the record's
    /// strings, and returns what the chain needs: for reading lines whose
    /// record nobody keeps (`verify`, other learners' lines in `state`).
    package static func checkRecord(_ line: UnsafeRawBufferPointer) throws(EventError) -> RecordKeys {
        try LineDecoder.keys(line)
    }

    /// Checks a stored line exactly as ``decodeRecord(_:)-(UnsafeRawBufferPointer)``
    /// does (same rules, same order, same errors) and returns what the chain
    /// needs, with the record made but for the envelope's strings: `id`,
    /// `at`'s text, `user`, `device` and `prev` are empty in it (`id`, `user`
    /// and `prev` are in the keys). For a reader that folds every record of
    /// one learner's log (whose user it compares as bytes) and needs only
    /// what happened (`data`) and when (`at`'s instant and day).
    package static func checkRecordKeepingData(_ line: UnsafeRawBufferPointer) throws(EventError) -> (keys: RecordKeys, record: Record) {
        try LineDecoder.keyed(line, data: true)
    }
}
