import Events

extension Report {
    /// The report as the spec's JSON object, compact, without a trailing newline.
    public var json: [UInt8] {
        var w = JSONWriter()
        w.object { w, o in
            o.day(&w, "from", from); o.day(&w, "to", to)
            o.objects(&w, "days", days) { w, r, row in r.string(&w, "day", row.day.description); row.counts.write(&w, &r) }
            o.object(&w, "totals") { w, t in totals.write(&w, &t) }
            o.objects(&w, "skills", skills) { w, s, skill in
                s.string(&w, "skill", skill.skill)
                s.integer(&w, "correct", skill.correct); s.integer(&w, "answers", skill.answers); s.integer(&w, "accuracy", skill.accuracy)
            }
            o.object(&w, "streaks") { w, s in
                s.day(&w, "day", to)
                s.objects(&w, "distribution", streaks) { w, b, bucket in b.integer(&w, "current", bucket.current); b.integer(&w, "users", bucket.users) }
            }
        }
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
