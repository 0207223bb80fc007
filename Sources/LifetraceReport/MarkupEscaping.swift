/// Escapes untrusted text (scene ids, task names, markers from traces) for XML and HTML, and JSON for a
/// `<script>` element: every escaping of the reports, in one place.
package enum MarkupEscaping {
    /// `text` safe in element content and in quoted attribute values of XML and HTML: `& < > " '` become
    /// entities, and control characters other than tab and line breaks (not allowed in XML) become spaces.
    package static func escape(_ text: String) -> String {
        rewrite(text) { character in
            switch character {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            case "\u{09}", "\u{0A}", "\u{0D}": nil
            case _ where character.value < 0x20: " "
            default: nil
            }
        }
    }

    /// `text` as a Markdown code span (GitHub Flavored Markdown, a pull-request comment): shown as written, never
    /// HTML (`<img>`), a link, an image, emphasis, an autolinked URL or an @mention, which GitHub makes of text
    /// but not of code. The fence is one backtick longer than any run of them in `text`, and a space pads each
    /// side (the one CommonMark strips), so a backtick at either end stays text. Control characters are the
    /// caller's to escape (``PrintableText``); a table cell's `|` is the table's.
    package static func markdownCode(_ text: String) -> String {
        var longest = 0
        var run = 0
        for character in text.unicodeScalars {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        return fence + " " + text + " " + fence
    }

    /// JSON that cannot end its `<script>` element: `<`, `>`, `&` and the line separators as escapes.
    static func scriptSafe(_ json: String) -> String {
        rewrite(json) { character in
            switch character {
            case "<": "\\u003c"
            case ">": "\\u003e"
            case "&": "\\u0026"
            case "\u{2028}": "\\u2028"
            case "\u{2029}": "\\u2029"
            default: nil
            }
        }
    }

    /// `text` with each scalar `replacement` gives a string for replaced by it, the others kept.
    private static func rewrite(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            if let replaced = replacement(character) {
                out += replaced
            } else {
                out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
