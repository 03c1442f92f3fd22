/// URLs as messages show them: a password (`user:password@`), a user part
/// that is a token by itself (`https://TOKEN@host`), and query parameters
/// that carry credentials (`?token=`, `access_token`, `api_key`, `sig`...)
/// replaced by `***`. Used for every URL a message or a log shows, whether
/// the URL is well-formed or not: a broken URL is shown in the message that
/// says it is broken.
public enum SecretsHidden {
    public static let mask = "***"

    /// Query parameters whose values are secrets, compared in lower case.
    static let secretParameters: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "auth", "authorization", "password", "passwd", "pass", "pwd",
        "secret", "client_secret", "api_key", "apikey", "key", "sig", "signature", "x-amz-signature", "x-amz-credential",
        "x-amz-security-token", "sslpassword",
    ]

    /// `url` with its secrets replaced.
    public static func url(_ url: String) -> String {
        let characters = Array(url)
        guard let schemeEnd = (0..<max(0, characters.count - 2)).first(where: {
            characters[$0] == ":" && characters[$0 + 1] == "/" && characters[$0 + 2] == "/"
        }) else { return url }
        let scheme = String(characters[..<schemeEnd]).lowercased()
        let start = schemeEnd + 3
        let authorityEnd = characters[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? characters.count
        let authority = characters[start..<authorityEnd]
        var shownAuthority = String(authority)
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            let host = String(authority[at...])
            if let colon = userInfo.firstIndex(of: ":") {
                shownAuthority = String(userInfo[..<colon]) + ":" + mask + host
            } else if ["http", "https", "ws", "wss"].contains(scheme) {
                // A user part alone is how tokens travel in web URLs.
                shownAuthority = mask + host
            }
        }
        let tail = characters[authorityEnd...]
        var shownTail = String(tail)
        if let mark = tail.firstIndex(of: "?") {
            let fragmentStart = tail[mark...].firstIndex(of: "#") ?? tail.endIndex
            let pairs = String(tail[(mark + 1)..<fragmentStart]).split(separator: "&", omittingEmptySubsequences: false)
            let hidden = pairs.map(hiddenParameter).joined(separator: "&")
            shownTail = String(tail[..<mark]) + "?" + hidden + String(tail[fragmentStart...])
        }
        return String(characters[..<start]) + shownAuthority + shownTail
    }

    private static func hiddenParameter(_ pair: Substring) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
        let name = pair[..<equals]
        return secretParameters.contains(HostAddress.percentDecoded(String(name)).lowercased()) ? name + "=" + mask : String(pair)
    }

    /// `url` with its secrets replaced, quoted as a Swift string literal (`debugDescription`).
    public static func quoted(_ url: String) -> String { self.url(url).debugDescription }
}
