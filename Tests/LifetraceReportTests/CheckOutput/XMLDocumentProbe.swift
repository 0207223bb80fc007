import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Counts the elements of an XML document with Foundation's parser, failing on malformed XML.
struct XMLDocumentProbe {
    var elements: [String: Int] = [:]

    init(_ text: String) throws {
        let delegate = Counter()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
        elements = delegate.counts
    }

    final class Counter: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            counts[name, default: 0] += 1
        }
    }
}
