import FlowLive
import FlowRuntime
import Testing

/// URLs in messages never show a password or a token.
@Suite struct SecretsHiddenTests {
    @Test func passwordsAndTokensAreReplaced() {
        #expect(SecretsHidden.url("postgres://ada:s3cret@db:5432/shop") == "postgres://ada:***@db:5432/shop")
        #expect(SecretsHidden.url("https://ghp_TOKEN@example.test/repo") == "https://***@example.test/repo")
        #expect(SecretsHidden.url("http://u:p@h/x?q=1&token=abc&Access_Token=def#top") == "http://u:***@h/x?q=1&token=***&Access_Token=***#top")
        #expect(SecretsHidden.url("http://h/x?api%5Fkey=abc&sig=1") == "http://h/x?api%5Fkey=***&sig=***")
        // Nothing secret: as it was.
        #expect(SecretsHidden.url("http://127.0.0.1:8080/a?b=c") == "http://127.0.0.1:8080/a?b=c")
        #expect(SecretsHidden.url("not a url") == "not a url")
        // A password holding @ and : is hidden whole (the host is after the last @).
        #expect(SecretsHidden.url("postgres://ada:p@ss:w@h/db") == "postgres://ada:***@h/db")
    }

    @Test func aDenialDoesNotShowTheToken() {
        let access = Access(.graded(folders: ["/tmp"]))
        var message = ""
        do { try access.checkNet(url: "http://ada:s3cret@127.0.0.1:9/x?token=t0ken", by: "http.get") } catch { message = FlowError.wrap(error).message }
        #expect(message.hasPrefix("http.get \"http://ada:***@127.0.0.1:9/x?token=***\": network access is not allowed"), "\(message)")
        #expect(!message.contains("s3cret") && !message.contains("t0ken"))
    }
}
