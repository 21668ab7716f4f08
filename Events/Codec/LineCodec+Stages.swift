/// verify's stages one at a time, for measuring where its time goes
/// (`ledger-stress bench-stages`, docs/performance.md): each does one
/// stage's work on a line and nothing else.
extension LineCodec {
    /// Whether the writer's walk takes the line: its layout only, no rule
    /// applied. For measuring the walk alone (`ledger-stress bench-stages`).
    package static func walksAsWriter(_ line: UnsafeRawBufferPointer) -> Bool {
        var decoder = LineDecoder(line)
        var e = LineDecoder.EnvelopeCapture()
        var spilled = Spilled()
        return decoder.scanWritersLine(into: &e, spilled: &spilled)
    }

    /// How many strings the line holds, each found from its opening quote to
    /// its end by the scanner's string reader (the SIMD search), with nothing
    /// else done: the structure scan alone, for measuring it
    /// (`ledger-stress bench-stages`). Stops at the first string it refuses.
    package static func stringCount(_ line: UnsafeRawBufferPointer) -> Int {
        var s = JSONScanner(line, checksLine: true)
        var count = 0
        var i = 0
        while true {
            i = ByteSearch.firstQuoteOrBackslash(line, from: i)
            guard i < line.count, line[i] == UInt8(ascii: "\"") else { return count }
            s.i = i
            guard (try? s.scanString()) != nil else { return count }
            i = s.i
            count &+= 1
        }
    }
}

extension LineCodec {
    /// ``checkRecord(_:)`` by the general walk and the full rules alone (no
    /// writer's walk, no second stage): the same answer, for measuring what
    /// the second stage saves (`ledger-stress bench-stages`).
    package static func checkRecordGeneral(_ line: UnsafeRawBufferPointer) throws(EventError) -> RecordKeys {
        try LineDecoder.keys(line, writersWalk: false)
    }
}
