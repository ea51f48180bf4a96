//! A compact way to declare this family's `Rule` statics (there are many).

/// `rule!(NAME, "VAL001", "kebab-name", "site id", "file", "function", "Exception", Stage,
/// "template", "explanation", ["--flag", ...], "bad args", "good args");`
macro_rules! rule {
    ($name:ident, $code:literal, $kebab:literal, $site:literal, $file:literal, $func:literal, $exc:literal, $stage:ident,
     $tmpl:expr, $expl:literal, [$($flag:literal),* $(,)?], $bad:literal, $good:literal) => {
        pub static $name: $crate::rules::Rule = $crate::rules::Rule {
            code: $code,
            name: $kebab,
            site: $site,
            file: $file,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: $exc,
            severity: $crate::diagnostic::Severity::Error,
            stage: $crate::diagnostic::Stage::$stage,
            template: $tmpl,
            explanation: $expl,
            flags: &[$($flag),*],
            example_bad: $bad,
            example_good: $good,
        };
    };
}

/// Same, for a `logger.warning` SGLang prints and goes on (no raise site).
macro_rules! warning_rule {
    ($name:ident, $code:literal, $kebab:literal, $file:literal, $func:literal, $stage:ident,
     $tmpl:expr, $expl:literal, [$($flag:literal),* $(,)?], $bad:literal, $good:literal) => {
        pub static $name: $crate::rules::Rule = $crate::rules::Rule {
            code: $code,
            name: $kebab,
            site: "",
            file: $file,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: "",
            severity: $crate::diagnostic::Severity::Warning,
            stage: $crate::diagnostic::Stage::$stage,
            template: $tmpl,
            explanation: $expl,
            flags: &[$($flag),*],
            example_bad: $bad,
            example_good: $good,
        };
    };
}
