/// English nouns counted in messages: the singular for one, the plural for any other number ("1 event",
/// "0 events", "2 processes"). The one place the tool's notes, warnings and errors make a count and its noun agree.
package enum Plural {
    /// `count` and `noun` agreeing with it: `count(1, "event")` is "1 event", `count(2, "process")` "2 processes".
    /// `plural` is the noun's plural when it is not the regular one (``regular(_:)``).
    package static func count(_ count: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(Self.noun(count, noun, plural: plural))"
    }

    /// `noun` alone, agreeing with `count`, for a word between the count and its noun ("3 more warnings") or a
    /// verb ("was", plural "were").
    package static func noun(_ count: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
        count == 1 ? noun : plural ?? regular(noun)
    }

    /// The regular plural of `noun`: "es" after s, x, ch and sh ("processes", "relaunches"), "ies" for a "y" after
    /// a consonant ("entries"), and "s" otherwise.
    static func regular(_ noun: String) -> String {
        if ["s", "x", "ch", "sh"].contains(where: noun.hasSuffix) { return noun + "es" }
        if noun.hasSuffix("y"), let before = noun.dropLast().last, !"aeiou".contains(before) {
            return noun.dropLast() + "ies"
        }
        return noun + "s"
    }
}
