/// The checks a line must pass before it is parsed as JSON: not blank, not
/// too long, no CR, no BOM, valid UTF-8.
///
/// Their errors come before any JSON error of the line. The decoder does not
/// run them up front: its scan meets every CR and every invalid byte as a JSON
/// error, and on any error it asks ``problem(_:)`` first (see `JSONScanner.checked`).
enum LineChecks {
    static func check(_ line: UnsafeRawBufferPointer) throws(EventError) {
        if let problem = problem(line) { throw problem }
    }

    /// The first problem of the line as a line, or nil.
    static func problem(_ line: UnsafeRawBufferPointer) -> EventError? {
        if let problem = lengthProblem(line) { return problem }
        if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            return EventError(.encoding, "the line starts with a byte order mark (BOM)", offset: 0)
        }
        var i = 0
        let n = line.count
        while i < n {
            let c = line[i]
            if c < 0x80 {
                if c == 0x0D { return EventError(.lineEnding, "the line holds a CR (\\r); lines end with LF only", offset: i) }
                i += 1
                continue
            }
            guard let width = utf8Width(line, i) else { return invalidUTF8(at: i) }
            i += width
        }
        return nil
    }

    /// A blank line or one over ``LineCodec/maxLineLength``: the checks that need no scan.
    @inline(__always)
    static func lengthProblem(_ line: UnsafeRawBufferPointer) -> EventError? {
        guard !line.isEmpty else { return EventError(.blankLine, "the line is empty") }
        guard line.count <= LineCodec.maxLineLength else {
            return EventError(.lineTooLong, "the line is \(line.count) bytes; at most \(LineCodec.maxLineLength) are allowed")
        }
        return nil
    }

    /// The error of an invalid UTF-8 sequence at byte offset `i`.
    static func invalidUTF8(at i: Int) -> EventError {
        EventError(.encoding, "invalid UTF-8 at byte \(i + 1)", offset: i)
    }

    /// The length of the valid UTF-8 sequence starting at `i`, or nil.
    @inline(__always)
    static func utf8Width(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int? {
        let n = b.count
        let c0 = b[i]
        @inline(__always) func cont(_ k: Int) -> Bool { k < n && b[k] & 0xC0 == 0x80 }
        switch c0 {
        case 0xC2...0xDF:
            return cont(i + 1) ? 2 : nil
        case 0xE0:
            return i + 1 < n && (0xA0...0xBF).contains(b[i + 1]) && cont(i + 2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return cont(i + 1) && cont(i + 2) ? 3 : nil
        case 0xED:
            return i + 1 < n && (0x80...0x9F).contains(b[i + 1]) && cont(i + 2) ? 3 : nil
        case 0xF0:
            return i + 1 < n && (0x90...0xBF).contains(b[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : nil
        case 0xF1...0xF3:
            return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : nil
        case 0xF4:
            return i + 1 < n && (0x80...0x8F).contains(b[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : nil
        default:
            return nil
        }
    }
}
