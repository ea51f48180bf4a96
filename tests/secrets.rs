#![allow(clippy::string_slice, clippy::indexing_slicing)]
//! Secrets stay out of links: `secrets::redact_for_link` replaces token, key and password
//! values by `<NAME>` placeholders and leaves every other byte as it was.

use sglang_preflight::secrets::{redact_for_link, Redacted};

/// Redact `text`; check that outside the reported spans the bytes are the original's, that
/// each span's bytes are replaced by its placeholder, and that redacting again changes nothing.
fn redact(text: &str) -> Redacted {
    let r = redact_for_link(text);
    let mut rebuilt = String::new();
    let mut at = 0;
    for x in &r.redacted {
        assert!(x.span.start >= at && x.span.end > x.span.start, "{text:?}: spans in order");
        rebuilt.push_str(&text[at..x.span.start]);
        rebuilt.push_str(&x.placeholder);
        assert_eq!(x.placeholder, format!("<{}>", x.name));
        at = x.span.end;
    }
    rebuilt.push_str(&text[at..]);
    assert_eq!(rebuilt, r.text, "{text:?}: only the values change");
    let again = redact_for_link(&r.text);
    assert_eq!(again.text, r.text, "{text:?}: redacting twice changes nothing");
    assert!(again.redacted.is_empty());
    r
}

/// (text in, text out, the values that were replaced, their names)
const CASES: &[(&str, &str, &[&str], &[&str])] = &[
    ("export HF_TOKEN=hf_abcdef123", "export HF_TOKEN=<HF_TOKEN>", &["hf_abcdef123"], &["HF_TOKEN"]),
    (
        "HF_TOKEN=hf_abc python -m sglang.launch_server --model-path m",
        "HF_TOKEN=<HF_TOKEN> python -m sglang.launch_server --model-path m",
        &["hf_abc"],
        &["HF_TOKEN"],
    ),
    ("HF_TOKEN='hf_abc' CUDA_VISIBLE_DEVICES=0 python x.py", "HF_TOKEN='<HF_TOKEN>' CUDA_VISIBLE_DEVICES=0 python x.py", &["hf_abc"], &["HF_TOKEN"]),
    ("export OPENAI_API_KEY=\"sk-1 2\"", "export OPENAI_API_KEY=\"<OPENAI_API_KEY>\"", &["sk-1 2"], &["OPENAI_API_KEY"]),
    ("AWS_SECRET_ACCESS_KEY=abc", "AWS_SECRET_ACCESS_KEY=<AWS_SECRET_ACCESS_KEY>", &["abc"], &["AWS_SECRET_ACCESS_KEY"]),
    ("DB_PASSWORD=hunter2 ./run.sh", "DB_PASSWORD=<DB_PASSWORD> ./run.sh", &["hunter2"], &["DB_PASSWORD"]),
    (
        "python -m sglang.launch_server --model-path m --api-key sk-123 --tp 2",
        "python -m sglang.launch_server --model-path m --api-key <API_KEY> --tp 2",
        &["sk-123"],
        &["API_KEY"],
    ),
    (
        "python -m sglang.launch_server --model-path m --api-key=sk-123 --admin-api-key 'adm in'",
        "python -m sglang.launch_server --model-path m --api-key=<API_KEY> --admin-api-key '<ADMIN_API_KEY>'",
        &["sk-123", "adm in"],
        &["API_KEY", "ADMIN_API_KEY"],
    ),
    (
        "python -m sglang.launch_server --model-path m --ssl-keyfile k.pem --ssl-keyfile-password pw",
        "python -m sglang.launch_server --model-path m --ssl-keyfile k.pem --ssl-keyfile-password <SSL_KEYFILE_PASSWORD>",
        &["pw"],
        &["SSL_KEYFILE_PASSWORD"],
    ),
    // an abbreviation SGLang's argparse accepts
    ("python -m sglang.launch_server --model-path m --api-k sk-9", "python -m sglang.launch_server --model-path m --api-k <API_KEY>", &["sk-9"], &["API_KEY"]),
    (
        "docker run --gpus all -e HF_TOKEN=hf_x --env \"HUGGING_FACE_HUB_TOKEN=hf_y\" --env=MY_SECRET=s3 -eX_TOKEN=tok9 lmsysorg/sglang python3 -m sglang.launch_server --model-path m",
        "docker run --gpus all -e HF_TOKEN=<HF_TOKEN> --env \"HUGGING_FACE_HUB_TOKEN=<HUGGING_FACE_HUB_TOKEN>\" --env=MY_SECRET=<MY_SECRET> -eX_TOKEN=<X_TOKEN> lmsysorg/sglang python3 -m sglang.launch_server --model-path m",
        &["hf_x", "hf_y", "s3", "tok9"],
        &["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "MY_SECRET", "X_TOKEN"],
    ),
    // line continuations and a script run by a shell
    (
        "docker run -e HF_TOKEN=hf_a \\\n  img bash -c 'python -m sglang.launch_server --model-path m --api-key sk-b'",
        "docker run -e HF_TOKEN=<HF_TOKEN> \\\n  img bash -c 'python -m sglang.launch_server --model-path m --api-key <API_KEY>'",
        &["hf_a", "sk-b"],
        &["HF_TOKEN", "API_KEY"],
    ),
    ("huggingface-cli login --token hf_zzz", "huggingface-cli login --token <TOKEN>", &["hf_zzz"], &["TOKEN"]),
];

#[test]
fn values_are_replaced_and_nothing_else() {
    for (text, want, values, names) in CASES {
        let r = redact(text);
        assert_eq!(r.text, *want, "{text:?}");
        let got_values: Vec<&str> = r.redacted.iter().map(|x| &text[x.span.start..x.span.end]).collect();
        assert_eq!(got_values, *values, "{text:?}");
        let got_names: Vec<&str> = r.redacted.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(got_names, *names, "{text:?}");
        for v in *values {
            assert!(!r.text.contains(v), "{text:?}: {v} left in the link text");
        }
    }
}

#[test]
fn not_secrets() {
    for text in [
        "python -m sglang.launch_server --model-path m --max-total-tokens 4096 --tokenizer-path t --skip-tokenizer-init --ssl-keyfile key.pem",
        "export HF_TOKEN=$HF_TOKEN\nHF_TOKEN=${HF_TOKEN} python x.py",
        "export HF_TOKEN=",
        "python -m sglang.launch_server --model-path m --api-key <API_KEY>",
        "MAX_TOKENS=5 KEY_PATH=/k python x.py",
        "docker run -e HF_TOKEN img",
        "python -m sglang.launch_server --model-path m --api-key --tp 2",
        "",
    ] {
        let r = redact(text);
        assert_eq!(r.text, text, "{text:?}");
        assert!(r.redacted.is_empty(), "{text:?}: {:?}", r.redacted);
    }
}

#[test]
fn hostile_text_never_panics_and_keeps_the_rest() {
    for text in [
        "export HF_TOKEN='unterminated",
        "HF_TOKEN=\"a\\\"b\" x",
        "--api-key",
        "x --api-key=",
        "export HF_TOKEN=héllo→ü \u{202e}x",
        "bash -c \"bash -c 'bash -c \\\"HF_TOKEN=deep x\\\"'\"",
        "A_TOKEN={a,b} x",
        "cat > f <<EOF\nHF_TOKEN=x\nEOF\n",
    ] {
        let _ = redact(text);
    }
}
