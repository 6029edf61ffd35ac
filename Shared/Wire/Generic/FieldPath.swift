/// Builds the field paths errors name: `hours[1].opens`, from the outermost message inward.
enum FieldPath {
    /// `parent.child`, or `child` at the top.
    static func child(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path + "." + name
    }

    /// `path[index]`.
    static func element(_ path: String, _ index: Int) -> String {
        "\(path)[\(index)]"
    }
}
