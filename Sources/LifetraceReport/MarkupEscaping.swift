/// Escapes untrusted text (scene ids, task names, markers from traces) for XML and HTML, and JSON for a
/// `<script>` element: every escaping of the reports, in one place.
public enum MarkupEscaping {
    /// `text` safe in element content and in quoted attribute values of XML and HTML: `& < > " '` become
    /// entities, and control characters other than tab and line breaks (not allowed in XML) become spaces.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\u{09}", "\u{0A}", "\u{0D}": escaped.unicodeScalars.append(character)
            case _ where character.value < 0x20: escaped += " "
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// JSON that cannot end its `<script>` element: `<`, `>`, `&` and the line separators as escapes.
    static func scriptSafe(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for character in json.unicodeScalars {
            switch character {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
