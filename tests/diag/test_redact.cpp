// The redaction rules one by one: each kind is removed (value gone, kind counted, context
// kept), look-alikes that are not secrets are left alone, JSON is redacted by key and by
// argument position, and redacting twice changes nothing.

#include "app/common/diag/redact.h"

#include <QTest>
#include <algorithm>

using sp::diag::Identity;
using sp::diag::RedactionCounts;
using sp::diag::RedactionKind;
using sp::diag::Redactor;

namespace {

Identity testIdentity()
{
    Identity id;
    id.names = {"zorbulon"};
    id.homes = {"/home/zorbulon", "C:\\Users\\Zorbulon", "/srv/homes/zb-home"};
    id.addSecretValues({{"HF_TOKEN", "hf_Sh0rt9"}, {"XDG_SESSION_TYPE", "wayland"}});
    return id;
}

const Redactor& redactor()
{
    static const Redactor r(testIdentity());
    return r;
}

} // namespace

class TestRedact : public QObject
{
    Q_OBJECT

private slots:
    void removesEachKind_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("secret"); // must be gone
        QTest::addColumn<QString>("kept");   // context that must stay
        QTest::addColumn<int>("kind");
        const auto row = [](const char* name, const char* in, const char* secret, const char* kept,
                            RedactionKind k) {
            QTest::newRow(name) << QString::fromUtf8(in) << QString::fromUtf8(secret)
                                << QString::fromUtf8(kept) << static_cast<int>(k);
        };
        using K = RedactionKind;
        row("env", "HF_TOKEN=abcdef123456", "abcdef123456", "HF_TOKEN=", K::SecretVariable);
        row("env-spaces", "export AWS_SECRET_ACCESS_KEY = wJalrXUtnFEMIK7MDENG", "wJalrXUtnFEMIK7",
            "export AWS_SECRET_ACCESS_KEY", K::SecretVariable);
        row("pgpassword", "PGPASSWORD=hunter2 psql", "hunter2", "psql", K::SecretVariable);
        row("json", R"({"api_key": "k-123-secret", "n": 1})", "k-123-secret", R"("n": 1)",
            K::SecretVariable);
        row("yaml", "session_cookie: Zm9vYmFyYmF6", "Zm9vYmFyYmF6",
            "session_cookie:", K::SecretVariable);
        row("query", "GET /v1?api_key=qwerty99&x=1", "qwerty99", "&x=1", K::SecretVariable);
        row("quoted", "password = \"correct horse battery\"", "correct horse", "password = \"",
            K::SecretVariable);
        row("url", "proxy http://alice:s3cret@proxy.example:3128/", "s3cret",
            "@proxy.example:3128/", K::UrlCredentials);
        row("auth", "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l", "YWxhZGRpbjpvcGVu",
            "Authorization: ", K::AuthorizationHeader);
        row("proxy-auth", "proxy-authorization=Bearer abcdefghijkl", "abcdefghijkl",
            "proxy-authorization=", K::AuthorizationHeader);
        row("cookie", "Cookie: sid=31d4d96e407aad42; lang=en", "31d4d96e407aad42",
            "Cookie: ", K::CookieHeader);
        row("bearer", "curl -H 'X: Bearer eyJzdWIiOjEyMzQ1Njc4OTB9'", "eyJzdWIiOjEyMzQ1Njc4",
            "curl -H", K::BearerToken);
        row("flag", "server --model m.gguf --token abc.def-123 --port 8080", "abc.def-123",
            "--port 8080", K::TokenFlag);
        row("flag-eq", "run --api-key=zzzzsecret", "zzzzsecret", "run --api-key=", K::TokenFlag);
        row("hf", "pulled with hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567 ok",
            "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "pulled with", K::HuggingFaceToken);
        row("openai", "key sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34 loaded",
            "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34", "loaded", K::OpenAiKey);
        row("github", "remote ghp_0123456789abcdefghijABCDEFGHIJ0123456789 used",
            "ghp_0123456789abcdefghij", "used", K::GithubToken);
        row("github-pat", "github_pat_11AAAAAAA0abcdefghij_klmnopqrstuvwxyz0123456789",
            "github_pat_11AAAAAAA0", "", K::GithubPat);
        row("aws", "id AKIAIOSFODNN7EXAMPLE,", "AKIAIOSFODNN7EXAMPLE", "id ", K::AwsAccessKey);
        row("jwt",
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9",
            "dozjgNryP4J3jVmNHl0w5N", "jwt ", K::Jwt);
        row("pem",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2\n-----END RSA "
            "PRIVATE KEY-----\nafter",
            "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2", "\nafter", K::PrivateKey);
        row("home", "loading /home/zorbulon/models/x.gguf", "zorbulon", "/home/<user>/models/",
            K::UserName);
        row("home-windows", "C:\\Users\\Zorbulon\\AppData\\Local", "Zorbulon",
            "C:\\Users\\<user>\\AppData", K::UserName);
        row("home-other-name", "cd /srv/homes/zb-home/x", "zb-home", "/srv/homes/<user>/x",
            K::UserName);
        row("name", "Welcome back, zorbulon!", "zorbulon", "Welcome back, <user>!", K::UserName);
        row("name-in-a-variable", "ZORBULON_TOKEN=abc123", "zorbulon",
            "<user>_TOKEN=<redacted:", K::UserName);
        // By value, however short; the shapes the review found.
        row("known-short-hf", "login ok as hf_Sh0rt9 now", "hf_Sh0rt9", "login ok as ",
            K::KnownSecret);
        row("known-in-a-word", "cache=/x/hf_Sh0rt9.lock", "hf_Sh0rt9", ".lock", K::KnownSecret);
        row("slack", "posting to https://hooks.slack.com/services/T0ABC/B0DEF/xyzSECRET123 done",
            "xyzSECRET123", "https://hooks.slack.com/services/", K::WebhookUrl);
        row("discord", "hook https://discord.com/api/webhooks/1234567890/AbCdEf-secret_99",
            "AbCdEf-secret_99", "discord.com/api/webhooks/", K::WebhookUrl);
        row("password-is", "the admin password is Tr0ub4dor&3 for now", "Tr0ub4dor&3",
            "password is ", K::PasswordPhrase);
        row("db-pass", "DB_PASS=pgsecret77 ./run", "pgsecret77", "DB_PASS=", K::SecretVariable);
        row("mysql-pwd", "MYSQL_PWD=myPwd88 mysql -u x", "myPwd88", "mysql -u x",
            K::SecretVariable);
        row("webhook-var", "SLACK_WEBHOOK=abcDEF123456", "abcDEF123456",
            "SLACK_WEBHOOK=", K::SecretVariable);
        row("pem-cut", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nMIIEcut",
            "MIIEvQIBADANBgkq", "", K::PrivateKey);
        row("pem-cut-then-log",
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nMIIEowIBAAKCAQEAu1\n"
            "[INFO] next line",
            "MIIEowIBAAKCAQEAu1", "[INFO] next line", K::PrivateKey);
        row("name-json-escaped", R"("C:\\Users\\zorbulon\\x")", "zorbulon", R"(\\<user>\\x)",
            K::UserName);
    }
    void removesEachKind()
    {
        QFETCH(QString, input);
        QFETCH(QString, secret);
        QFETCH(QString, kept);
        QFETCH(int, kind);
        RedactionCounts counts;
        const std::string out = redactor().text(input.toStdString(), counts);
        QVERIFY2(out.find(secret.toStdString()) == std::string::npos, out.c_str());
        QVERIFY2(out.find(kept.toStdString()) != std::string::npos, out.c_str());
        QVERIFY2(counts[static_cast<RedactionKind>(kind)] >= 1, counts.summary().c_str());
        QVERIFY2(out.find(Redactor::marker(static_cast<RedactionKind>(kind))) != std::string::npos,
                 out.c_str());
    }

    void leavesLookAlikes_data()
    {
        QTest::addColumn<QString>("input");
        const auto row = [](const char* in) { QTest::newRow(in) << QString::fromUtf8(in); };
        row("KeyError: 'model.diffusion_model'");
        row("tokenizer: PreTrainedTokenizerFast");
        row("Authentication failed for the mirror");
        row("use_auth_token=True, max_tokens=512, HF_TOKEN=$HF_TOKEN");
        row("pip install scikit-learn; task-abcdefghijklmnopqrstuvw; sk-learn-compatible-tools");
        row("--no-auth-check --verbose");
        row("hf_hub_download(repo_id) and ghp_short");
        row("https://github.com/ROCm/ROCm/issues/2536 and user@example.com");
        row("zorbulonian notation, xzorbulon");
        row("root cause: /root/.cache");
        row("the password is incorrect; password was not set");
        row("PWD=/srv/app OLDPWD=/srv XDG_SESSION_TYPE=wayland on wayland");
    }
    void leavesLookAlikes()
    {
        QFETCH(QString, input);
        RedactionCounts counts;
        const std::string in = input.toStdString();
        const std::string out = redactor().text(in, counts);
        QCOMPARE(QString::fromStdString(out), input);
        QCOMPARE(counts.total(), std::size_t{0});
    }

    void twiceIsOnce()
    {
        const std::string in = "{\"a\": \"x\",\"api_key\": \"y\"} --token \"q w\"\n"
                               "HF_TOKEN=abc123xyz --token t0k3n http://a:b@h/\n"
                               "Authorization: Bearer abcdefghijk\nCookie: a=b\n/home/zorbulon/x "
                               "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567 AKIAIOSFODNN7EXAMPLE";
        RedactionCounts first, second;
        const std::string once = redactor().text(in, first);
        const std::string twice = redactor().text(once, second);
        QCOMPARE(twice, once);
        QCOMPARE(second.total(), std::size_t{0});
        QVERIFY(first.total() >= 8);
        // fuzz_redact's find: a key token inside a secret variable's name; once its
        // marker is in, the rest of the name is a name of its own and its value goes too.
        RedactionCounts third, fourth;
        const std::string nested = "sk-zzjNrP4J3jVmNnDBUON_.sk-token=a";
        const std::string nestedOnce = redactor().text(nested, third);
        QCOMPARE(redactor().text(nestedOnce, fourth), nestedOnce);
        QCOMPARE(fourth.total(), std::size_t{0});
        QVERIFY2(nestedOnce.find("=a") == std::string::npos, nestedOnce.c_str());
    }

    void jsonByKeyAndArgument()
    {
        const auto in = nlohmann::json::parse(R"({
            "proxy": "http://zorbulon:pw1234@proxy:3128",
            "workloads": {"sdnext": {"env": {"HF_TOKEN": "value-1", "SESSION_TIMEOUT": 30,
                                              "PATH": "/home/zorbulon/bin"},
                                     "args": ["--listen", "--api-key", "value-2", "--port", "80"]}},
            "secrets": {"nested": ["value-3"]},
            "db_password": 87654321, "api_key": 1234567.5, "max_tokens": 512,
            "/home/zorbulon/plain": "ok"})");
        RedactionCounts counts;
        const std::string out = Redactor(testIdentity()).json(in, counts).dump();
        for (const char* gone :
             {"value-1", "value-2", "value-3", "pw1234", "zorbulon", "87654321", "1234567.5"})
            QVERIFY2(out.find(gone) == std::string::npos, out.c_str());
        QVERIFY2(out.find(R"("SESSION_TIMEOUT":30)") != std::string::npos, out.c_str());
        QVERIFY2(out.find(R"("max_tokens":512)") != std::string::npos, out.c_str());
        QVERIFY2(out.find(R"("--port","80")") != std::string::npos, out.c_str());
        QCOMPARE(counts[RedactionKind::TokenFlag], std::size_t{1});
        QCOMPARE(counts[RedactionKind::SecretVariable], std::size_t{4});
        QCOMPARE(counts[RedactionKind::UrlCredentials], std::size_t{1});
        QVERIFY(counts[RedactionKind::UserName] >= 2); // a value and a key
    }

    void jsonTextFallsBackToText()
    {
        RedactionCounts counts;
        // Not JSON (cut): still redacted, as text.
        const std::string out =
            Redactor(testIdentity()).jsonText(R"({"HF_TOKEN": "abcdef123", "x": )", counts);
        QVERIFY2(out.find("abcdef123") == std::string::npos, out.c_str());
        QCOMPARE(counts[RedactionKind::SecretVariable], std::size_t{1});
        // Deeper than the limit: text, not a parse.
        const std::string deep = std::string(100, '[') +
                                 "\"hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567\"" +
                                 std::string(100, ']');
        const std::string flat = Redactor(testIdentity()).jsonText(deep, counts);
        QVERIFY(flat.find("hf_AbCd") == std::string::npos);
        QCOMPARE(flat.size(),
                 deep.size() - 37 + Redactor::marker(RedactionKind::HuggingFaceToken).size());
    }

    // The values that are redacted by value: secret-named, not placeholders, paths or
    // the system's session variables.
    void secretValuesByName()
    {
        Identity id;
        id.addSecretValues({{"HF_TOKEN", "hf_Sh0rt9"},
                            {"DB_PASS", "pa55"},
                            {"MYSQL_PWD", "x1y2z3"},
                            {"USE_AUTH_TOKEN", "true"},
                            {"TOKEN_FILE", "/home/u/.token"},
                            {"MAX_TOKENS", "512"},
                            {"XDG_SESSION_TYPE", "wayland"},
                            {"SSH_AUTH_SOCK", "agent.123"},
                            {"PWD", "project1"},
                            {"HOME", "home1234"}});
        QCOMPARE(id.secrets, (std::vector<std::string>{"hf_Sh0rt9", "pa55", "x1y2z3"}));
        id.addSecretValuesIn(nlohmann::json::parse(
            R"({"workloads": {"w": {"env": {"MYSQL_PWD": "s3tPwd", "N": "v"}}},
                "webhooks": ["https-less-9"]})"));
        QCOMPARE(id.secrets.size(), std::size_t{5});
        QVERIFY(std::find(id.secrets.begin(), id.secrets.end(), "s3tPwd") != id.secrets.end());
        QVERIFY(std::find(id.secrets.begin(), id.secrets.end(), "https-less-9") !=
                id.secrets.end());
    }

    void countsSummariseByKindNeverByValue()
    {
        RedactionCounts counts;
        redactor().text("HF_TOKEN=abcdef99 x AKIAIOSFODNN7EXAMPLE", counts);
        QCOMPARE(counts.summary(), std::string("secret-variable 1, aws-access-key 1"));
        QCOMPARE(counts.toJson().dump(),
                 std::string(R"({"aws-access-key":1,"secret-variable":1})"));
    }

    void identityFromEnvironment()
    {
        qputenv("USER", "qazwsxuser");
        qputenv("HOME", "/tmp/homes/qazwsxuser");
        const Identity id = Identity::fromEnvironment();
        QVERIFY(std::find(id.names.begin(), id.names.end(), "qazwsxuser") != id.names.end());
        QVERIFY(std::find(id.homes.begin(), id.homes.end(), "/tmp/homes/qazwsxuser") !=
                id.homes.end());
        qputenv("USER", "root");
        qputenv("HOME", "/root");
        const Identity generic = Identity::fromEnvironment();
        QVERIFY(std::find(generic.names.begin(), generic.names.end(), "root") ==
                generic.names.end());
        QVERIFY(std::find(generic.homes.begin(), generic.homes.end(), "/root") ==
                generic.homes.end());
    }
};

QTEST_GUILESS_MAIN(TestRedact)
#include "test_redact.moc"
