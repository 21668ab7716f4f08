extension Report {
    /// One row per day with the `days` members as columns, in the spec's order,
    /// after a header row. Null is an empty field; lines end with LF. No field
    /// needs quoting (days and integers only).
    public var csv: String {
        var out = Report.dayColumns.joined(separator: ",") + "\n"
        for row in days {
            out += row.day.description
            for value in row.counts.columns { out += "," + (value.map(String.init) ?? "") }
            out += "\n"
        }
        return out
    }
}
