import Events

extension Report {
    /// The report as the spec's JSON object, compact, without a trailing newline.
    public var json: [UInt8] {
        var w = JSONWriter()
        var o = ObjectWriter(&w)
        o.key(&w, "from"); w.day(from)
        o.key(&w, "to"); w.day(to)
        o.key(&w, "days")
        w.array(days) { w, row in
            var r = ObjectWriter(&w)
            r.key(&w, "day"); w.string(row.day.description)
            row.counts.write(&w, &r)
            r.end(&w)
        }
        o.key(&w, "totals")
        var t = ObjectWriter(&w)
        totals.write(&w, &t)
        t.end(&w)
        o.key(&w, "skills")
        w.array(skills) { w, skill in
            var s = ObjectWriter(&w)
            s.key(&w, "skill"); w.string(skill.skill)
            s.key(&w, "correct"); w.integer(skill.correct)
            s.key(&w, "answers"); w.integer(skill.answers)
            s.key(&w, "accuracy"); w.integer(skill.accuracy)
            s.end(&w)
        }
        o.key(&w, "streaks")
        var s = ObjectWriter(&w)
        s.key(&w, "day"); w.day(to)
        s.key(&w, "distribution")
        w.array(streaks) { w, bucket in
            var b = ObjectWriter(&w)
            b.key(&w, "current"); w.integer(bucket.current)
            b.key(&w, "users"); w.integer(bucket.users)
            b.end(&w)
        }
        s.end(&w)
        o.end(&w)
        return w.bytes
    }
}

extension Report.Counts {
    /// Writes the members of a day row after `day`, in the spec's order.
    func write(_ w: inout JSONWriter, _ o: inout ObjectWriter) {
        for (name, value) in zip(Report.dayColumns.dropFirst(), columns) {
            o.key(&w, name: name)
            w.integer(value)
        }
    }
}
