/// Reading and writing one member of an ordered list of JSON object members, as headers and metadata keep
/// them: a new key goes last, a changed one stays where it was, `nil` removes it.
enum JSONMembers {
    static func value(of key: String, in members: [(key: String, value: JSONValue)]) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    static func set(_ key: String, to value: JSONValue?, in members: inout [(key: String, value: JSONValue)]) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            if let value { members[index].value = value } else { members.remove(at: index) }
        } else if let value {
            members.append((key, value))
        }
    }
}
