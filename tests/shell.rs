//! Unit tests of the shell reader and the launcher locator: spans and maps, traps, bad input.

#![allow(clippy::string_slice, clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use sglang_preflight::diagnostic::{apply_edits, Origin, Severity, Stage};
use sglang_preflight::invocation::{locate, Entry, Invocation};
use sglang_preflight::shell::{parse, ShellParse, Word};
use std::time::{Duration, Instant};

fn texts(w: &[Word]) -> Vec<&str> {
    w.iter().map(|w| w.text.as_str()).collect()
}

fn invs(text: &str) -> Vec<Invocation> {
    locate(&parse(text)).invocations
}

fn one(text: &str) -> Invocation {
    let v = invs(text);
    assert_eq!(v.len(), 1, "expected one invocation in {text:?}, got {v:?}");
    v.into_iter().next().unwrap()
}

fn args(text: &str) -> Vec<String> {
    one(text).args.iter().map(|w| w.text.clone()).collect()
}

fn codes(p: &ShellParse) -> Vec<&str> {
    p.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// Every invariant that must hold for any input.
fn check_invariants(text: &str) {
    let p = parse(text);
    for c in &p.commands {
        assert!(c.span.start <= c.span.end && c.span.end <= text.len());
        for w in &c.words {
            assert!(w.span.start <= w.span.end && w.span.end <= text.len(), "span out of text: {w:?}");
            assert!(text.is_char_boundary(w.span.start) && text.is_char_boundary(w.span.end));
            match &w.map {
                None => assert_eq!(text.get(w.span.start..w.span.end), Some(w.text.as_str())),
                Some(m) => {
                    assert_eq!(m.len(), w.text.len());
                    assert!(m.iter().all(|&o| o < text.len().max(1)));
                }
            }
            for (s, e) in [(0, w.text.len()), (0, 0), (w.text.len(), w.text.len())] {
                let sp = w.sub_span(s, e);
                assert!(sp.start <= sp.end && sp.end <= text.len());
            }
        }
        for a in &c.assignments {
            assert!(a.span.end <= text.len());
        }
    }
    for d in &p.diagnostics {
        assert_eq!(d.stage, Stage::Shell);
        assert_eq!(d.origin, Origin::Preflight);
        assert!(d.code.starts_with("SH"));
        assert!(d.span.start <= d.span.end && d.span.end <= text.len());
        assert!(text.is_char_boundary(d.span.start) && text.is_char_boundary(d.span.end));
        for f in &d.fixes {
            assert!(apply_edits(text, &f.edits).is_some(), "fix does not apply: {f:?}");
        }
    }
    let l = locate(&p);
    for inv in &l.invocations {
        for sp in std::iter::once(inv.span).chain(std::iter::once(inv.launcher)).chain(inv.args.iter().map(|w| w.span)) {
            assert!(sp.start <= sp.end && sp.end <= text.len(), "{sp:?} in {text:?}");
            assert!(text.is_char_boundary(sp.start) && text.is_char_boundary(sp.end));
        }
        for w in &inv.args {
            if let Some(m) = &w.map {
                assert_eq!(m.len(), w.text.len());
                assert!(m.iter().all(|&o| o <= text.len()));
            }
            let sp = w.sub_span(0, w.text.len());
            assert!(sp.end <= text.len());
        }
    }
    for d in &l.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end <= text.len());
        assert!(text.is_char_boundary(d.span.start) && text.is_char_boundary(d.span.end));
    }
}

#[test]
fn plain_words_are_verbatim() {
    let t = "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2";
    let inv = one(t);
    assert_eq!(inv.entry, Entry::LaunchServer);
    assert_eq!(texts(&inv.args), ["--model-path", "Qwen/Qwen3-8B", "--tp", "2"]);
    assert!(inv.args.iter().all(|w| w.map.is_none()));
    assert_eq!(&t[inv.launcher.start..inv.launcher.end], "python -m sglang.launch_server");
    assert_eq!(inv.args[1].span.start, t.find("Qwen/").unwrap());
}

#[test]
fn quoted_flag_value_sub_span() {
    let t = r#"sglang serve --model-path="Qwen/Qwen3-8B" --served-model-name 'a b'"#;
    let inv = one(t);
    assert_eq!(inv.entry, Entry::Serve);
    let w = &inv.args[0];
    assert_eq!(w.text, "--model-path=Qwen/Qwen3-8B");
    assert_eq!(&t[w.span.start..w.span.end], r#"--model-path="Qwen/Qwen3-8B""#);
    let v = w.sub_span("--model-path=".len(), w.text.len());
    assert_eq!(&t[v.start..v.end], "Qwen/Qwen3-8B");
    let f = w.sub_span(0, "--model-path".len());
    assert_eq!(&t[f.start..f.end], "--model-path");
    let n = &inv.args[2];
    assert_eq!(n.text, "a b");
    let s = n.sub_span(0, 3);
    assert_eq!(&t[s.start..s.end], "a b");
}

#[test]
fn escapes_in_double_quotes_and_ansi_c() {
    assert_eq!(args(r#"python -m sglang.launch_server --x "a \"b\" \\ \$c \`d\` \e""#), ["--x", "a \"b\" \\ $c `d` \\e"]);
    assert_eq!(args(r"python -m sglang.launch_server --x $'t\tn\nq\'b\\h\x41o\101u\u00e9'"), ["--x", "t\tn\nq'b\\hAoAué"]);
    assert_eq!(args(r"python -m sglang.launch_server --x a\ b\'c"), ["--x", "a b'c"]);
    assert_eq!(args("python -m sglang.launch_server --x ''"), ["--x", ""]);
    // high \x bytes never make invalid UTF-8
    let a = args(r"python -m sglang.launch_server --x $'\xff'");
    assert_eq!(a[1], "\u{FFFD}");
}

#[test]
fn continuations_crlf_comments() {
    let t = "python3 -m sglang.launch_server \\\r\n  --model-path m \\\r\n  --tp 2 # two\r\n# end\r\n";
    assert_eq!(args(t), ["--model-path", "m", "--tp", "2"]);
    assert!(parse(t).diagnostics.is_empty());
    assert_eq!(args("python3 -m sglang.launch_server --t\\\np 2"), ["--tp", "2"]);
}

#[test]
fn separators_and_redirections() {
    let t = "cd x && CUDA_VISIBLE_DEVICES=0 python -m sglang.launch_server --tp 1 > log 2>&1 &\n\
             python -m sglang.launch_server --tp 2 2>/dev/null | tee out; echo done || true";
    let v = invs(t);
    assert_eq!(v.len(), 2);
    assert_eq!(texts(&v[0].args), ["--tp", "1"]);
    assert_eq!(v[0].env, vec![("CUDA_VISIBLE_DEVICES".to_string(), "0".to_string())]);
    assert_eq!(texts(&v[1].args), ["--tp", "2"]);
    assert_eq!(args("python -m sglang.launch_server --a &>x --b <in --c >>y 1>&2"), ["--a", "--b", "--c"]);
    // digits glued to `>` after an option: the shell drops the value (SH009)
    let t = "python -m sglang.launch_server --tp 2>log";
    assert_eq!(args(t), ["--tp"]);
    let p = parse(t);
    assert_eq!(codes(&p), ["SH009"]);
    let fixed = apply_edits(t, &p.diagnostics[0].fixes[0].edits).unwrap();
    assert_eq!(args(&fixed), ["--tp", "2"]);
    assert!(parse("python -m sglang.launch_server --tp 1 2>&1").diagnostics.is_empty());
    // after a flag without a value, `2>&1` is just a redirection
    assert!(parse("python -m sglang.launch_server --trust-remote-code 2>&1").diagnostics.is_empty());
    // digits not touching `>` are arguments
    assert_eq!(args("python -m sglang.launch_server --tp 2 >x"), ["--tp", "2"]);
}

#[test]
fn wrappers_and_env() {
    let t = "export SGLANG_A=1\nCUDA_VISIBLE_DEVICES=0,1 nohup numactl --cpunodebind=0 --membind=0 env SGLANG_B=2 python3 -u -m sglang.launch_server --tp 2";
    let inv = one(t);
    assert_eq!(texts(&inv.args), ["--tp", "2"]);
    let env: Vec<(&str, &str)> = inv.env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(env, [("SGLANG_A", "1"), ("CUDA_VISIBLE_DEVICES", "0,1"), ("SGLANG_B", "2")]);

    let d = one(r#"docker run --gpus '"device=4,5"' -e SGLANG_X=1 --env=B=2 -p 30000:30000 --ipc=host lmsysorg/sglang:latest python3 -m sglang.launch_server --tp 2"#);
    assert_eq!(texts(&d.args), ["--tp", "2"]);
    assert_eq!(d.env, vec![("SGLANG_X".into(), "1".into()), ("B".into(), "2".into())]);

    assert_eq!(texts(&one("uv run sglang serve Qwen/Qwen3-8B").args), ["Qwen/Qwen3-8B"]);
    assert_eq!(one("srun -N1 --gpus 8 /usr/bin/python3.11 -X dev -m sglang.launch_server --tp 8").args.len(), 2);
    assert_eq!(texts(&one("time sudo -E python -m sglang.launch_server --tp 1").args), ["--tp", "1"]);
    assert!(invs("echo python -m sglang.launch_server --tp 2").is_empty());
    assert!(invs("python -m sglang.bench_serving --tp 2").is_empty());
    assert!(invs("pip install sglang").is_empty());
}

#[test]
fn shell_c_strings() {
    let t = r#"docker run -e A=1 img bash -lc "export B=2; python -m sglang.launch_server --model-path \"a b\" --tp 2 --x $'q'""#;
    let inv = one(t);
    assert_eq!(texts(&inv.args), ["--model-path", "a b", "--tp", "2", "--x", "q"]);
    let w = &inv.args[1];
    let s = w.sub_span(0, 3);
    assert_eq!(&t[s.start..s.end], "a b");
    let tp = &inv.args[2];
    assert_eq!(&t[tp.span.start..tp.span.end], "--tp");
    assert!(tp.map.is_none());
    assert_eq!(&t[inv.launcher.start..inv.launcher.end], "python -m sglang.launch_server");
    let env: Vec<(&str, &str)> = inv.env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(env, [("A", "1"), ("B", "2")]);
    // the inner shell sees the environment: single-quoted `$M` expands there
    assert_eq!(args("export M=x\nbash -c 'python -m sglang.launch_server --m $M'"), ["--m", "x"]);
    // findings inside the string point into the original text
    let t = "sh -c 'python -m sglang.launch_server --model-path <m>'";
    let p = parse(t);
    let l = locate(&p);
    let d = l.diagnostics.iter().find(|d| d.code == "SH007").unwrap();
    assert_eq!(&t[d.span.start..d.span.end], "<m>");
    assert!(invs("bash run.sh --tp 2").is_empty());
}

#[test]
fn variables() {
    assert_eq!(args("MODEL=Qwen/Qwen3-8B; python -m sglang.launch_server --model-path $MODEL"), ["--model-path", "Qwen/Qwen3-8B"]);
    assert_eq!(args("export M=x\npython -m sglang.launch_server --m \"${M}\" --n ${U:-d} --o ${M:-d}"), ["--m", "x", "--n", "d", "--o", "x"]);
    assert_eq!(args("A='--tp 2'\npython -m sglang.launch_server $A \"$A\""), ["--tp", "2", "--tp 2"]);
    assert_eq!(args("E=\npython -m sglang.launch_server $E --x"), ["--x"]);
    // `${NAME:=word}` / `${NAME=word}` assign the default too: later lines read it
    assert_eq!(
        args(": \"${PORT:=8002}\"\npython -m sglang.launch_server --port \"${PORT}\" --host ${HOST=h} --x $HOST --y ${PORT:=1}"),
        ["--port", "8002", "--host", "h", "--x", "h", "--y", "8002"]
    );
    // `${NAME:?message}` / `${NAME?message}`: the value where the paste sets it (`:?` also
    // refuses an empty one); else kept as written and warned (the check leaves it unjudged)
    assert_eq!(args("M=a/b\npython -m sglang.launch_server --m ${M:?set M} --n \"${M?}\""), ["--m", "a/b", "--n", "a/b"]);
    let t = "E=\npython -m sglang.launch_server --m ${E:?set E} --n ${E?set E}";
    assert_eq!(args(t), ["--m", "${E:?set E}", "--n"]); // unquoted and empty: no word
    let p = parse(t);
    assert_eq!(codes(&p), ["SH005"]);
    assert_eq!(&t[p.diagnostics[0].span.start..p.diagnostics[0].span.end], "${E:?set E}");
    // a prefix assignment does not change the command's own expansions
    assert_eq!(args("M=a\nM=b python -m sglang.launch_server $M"), ["a"]);
    // undefined: kept literally, warned
    let t = "python -m sglang.launch_server --model-path $MODEL --port ${PORT}";
    assert_eq!(args(t), ["--model-path", "$MODEL", "--port", "${PORT}"]);
    let p = parse(t);
    assert_eq!(codes(&p), ["SH005", "SH005"]);
    assert!(p.diagnostics[0].message.contains("not expanded here"));
    assert_eq!(&t[p.diagnostics[0].span.start..p.diagnostics[0].span.end], "$MODEL");
    // a variable set to a command's output holds a value not known here: one word, unsplit
    // (the command's text is no value), as is a redirection's target built from it
    let t = "ROOT=$(dirname $(readlink -f $0))\nexport M=`pwd`/m\npython -m sglang.launch_server --model-path ${ROOT}/m --x $M --tp 1 > $ROOT/log 2>&1";
    let inv = one(t);
    assert_eq!(texts(&inv.args), ["--model-path", "${ROOT}/m", "--x", "$M", "--tp", "1"]);
    assert_eq!(inv.args.iter().map(|w| w.value_unknown).collect::<Vec<_>>(), [false, true, false, true, false, false]);
    // command substitution
    let t = "python -m sglang.launch_server --port $(get_port) --host `hostname`";
    assert_eq!(args(t), ["--port", "$(get_port)", "--host", "`hostname`"]);
    assert_eq!(codes(&parse(t)), ["SH006", "SH006"]);
}

#[test]
fn here_documents_expand_as_bash_does() {
    let written = |t: &str| parse(t).written_files.into_iter().map(|f| (f.path, f.content, f.unknown_variables)).collect::<Vec<_>>();
    let none: Vec<String> = Vec::new();
    // An unquoted delimiter: expanded as in double quotes (`"` is an ordinary character there;
    // `\$` is a dollar sign); what the paste does not set stays as written, warned.
    let t = "P=30001\nN=llama\ncat > cfg.yaml <<EOF\nport: $P\nname: \"${N}-\\$x\"\nctx: ${C:-4096}\nhost: $H\nEOF\n";
    assert_eq!(written(t), [("cfg.yaml".to_string(), "port: 30001\nname: \"llama-$x\"\nctx: 4096\nhost: $H\n".to_string(), none.clone())]);
    let p = parse(t);
    assert_eq!(codes(&p), ["SH005"]);
    assert_eq!(&t[p.diagnostics[0].span.start..p.diagnostics[0].span.end], "$H");
    // A quoted delimiter (or an escaped one): taken as written.
    for delimiter in ["'EOF'", "\"EOF\"", "\\EOF"] {
        let t = format!("P=1\ncat > cfg.yaml <<{delimiter}\nport: $P\nEOF\n");
        assert_eq!(written(&t)[0].1, "port: $P\n", "{delimiter}");
        assert!(parse(&t).diagnostics.is_empty(), "{delimiter}");
    }
    // `<<-` strips the lines' leading tabs, not those a value brings.
    assert_eq!(written("T='\tx'\ncat > a.yaml <<-EOF\n\t\tk: $T\n\tEOF\n")[0].1, "k: \tx\n");
    // A variable the script requires and the paste does not set: as written, and named.
    let t = "cat > cfg.yaml <<EOF\nserved-model-name: ${NAME:?}\nport: 1\nEOF\n";
    assert_eq!(written(t), [("cfg.yaml".to_string(), "served-model-name: ${NAME:?}\nport: 1\n".to_string(), vec!["NAME".to_string()])]);
    // Command substitutions in a body are not listed as the text's own commands.
    assert!(parse("cat > c.yaml <<EOF\nhost: $(hostname)\nEOF\n").substitutions.is_empty());
}

#[test]
fn broken_continuation_sh001() {
    let t = "python -m sglang.launch_server --model-path m \\  \n  --tp 2 \\\n  --port 1";
    let p = parse(t);
    assert_eq!(codes(&p), ["SH001"]);
    let d = &p.diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(&t[d.span.start..d.span.start + 1], "\\");
    // bash semantics: an escaped space argument, then the command ends
    assert_eq!(args(t), ["--model-path", "m", " "]);
    let fixed = apply_edits(t, &d.fixes[0].edits).unwrap();
    assert_eq!(args(&fixed), ["--model-path", "m", "--tp", "2", "--port", "1"]);
    assert!(parse(&fixed).diagnostics.is_empty());

    let t = "python -m sglang.launch_server \\\n  --model-path m \\  # the model\r\n  --tp 2";
    let p = parse(t);
    assert_eq!(codes(&p), ["SH001"]);
    let fixed = apply_edits(t, &p.diagnostics[0].fixes[0].edits).unwrap();
    assert_eq!(args(&fixed), ["--model-path", "m", "--tp", "2"]);
}

#[test]
fn trailing_backslash_sh002() {
    for t in ["python -m sglang.launch_server --tp 2 \\", "python -m sglang.launch_server --tp 2 \\  "] {
        let p = parse(t);
        assert_eq!(codes(&p), ["SH002"]);
        assert_eq!(p.diagnostics[0].severity, Severity::Warning);
        assert_eq!(args(t), ["--tp", "2"]);
    }
}

#[test]
fn unterminated_quotes_sh003() {
    for (t, want) in [
        ("python -m sglang.launch_server --x \"a b --tp 2", "a b --tp 2"),
        ("python -m sglang.launch_server --x 'a\nb", "a\nb"),
        ("python -m sglang.launch_server --x $'a", "a"),
        ("python -m sglang.launch_server --x \"$(echo", "$(echo"),
    ] {
        let p = parse(t);
        assert!(codes(&p).contains(&"SH003"), "{t:?}: {:?}", codes(&p));
        let d = p.diagnostics.iter().find(|d| d.code == "SH003").unwrap();
        assert_eq!(d.severity, Severity::Error);
        assert!(d.message.contains("unterminated quote"));
        assert_eq!(args(t), ["--x", want]);
    }
}

#[test]
fn unquoted_json_sh004() {
    let t = r#"python -m sglang.launch_server --json-model-override-args {"a": 1, "b": {"c": 2}} --tp 2"#;
    assert_eq!(args(t), ["--json-model-override-args", "{a:", "1,", "b:", "{c:", "2}}", "--tp", "2"]);
    let p = parse(t);
    assert_eq!(codes(&p), ["SH004"]);
    let fixed = apply_edits(t, &p.diagnostics[0].fixes[0].edits).unwrap();
    assert_eq!(args(&fixed), ["--json-model-override-args", r#"{"a": 1, "b": {"c": 2}}"#, "--tp", "2"]);
    assert!(parse(&fixed).diagnostics.is_empty());
    // `--flag={...}` too
    let t = r#"python -m sglang.launch_server --json-model-override-args={"a":1}"#;
    let p = parse(t);
    assert_eq!(codes(&p), ["SH004"]);
    let fixed = apply_edits(t, &p.diagnostics[0].fixes[0].edits).unwrap();
    assert_eq!(args(&fixed), [r#"--json-model-override-args={"a":1}"#]);
    // quoted JSON is fine
    assert!(parse(r#"python -m sglang.launch_server --j '{"a": 1}'"#).diagnostics.is_empty());
}

#[test]
fn brace_expansion_like_bash() {
    let t = r#"python -m sglang.launch_server --j {"a":1,"b":2} x{a,"b c"}y {a}{b,c} {{a,b}} {'a,b',c} {a,b a{,}b {} {a,b}{c,d}"#;
    assert_eq!(
        args(t),
        ["--j", "a:1", "b:2", "xay", "xb cy", "{a}b", "{a}c", "{a}", "{b}", "a,b", "c", "{a,b", "ab", "ab", "{}", "ac", "ad", "bc", "bd"]
    );
    let p = parse(t);
    assert_eq!(codes(&p), ["SH004"]);
    let inv = one(t);
    // expanded words point into their alternative's bytes
    let w = &inv.args[4];
    assert_eq!(w.text, "xb cy");
    let s = w.sub_span(1, 4);
    assert_eq!(&t[s.start..s.end], "b c");
    check_invariants(t);
    // exponential blow-up is refused, not attempted
    let many = format!("python -m sglang.launch_server {}", "{a,b}".repeat(40));
    assert_eq!(one(&many).args.len(), 1);
}

#[test]
fn placeholders_sh007_and_prompt_sh008() {
    let t = "$ python -m sglang.launch_server --model-path <your-model> --x=<v>";
    assert_eq!(args(t), ["--model-path", "<your-model>", "--x=<v>"]);
    let p = parse(t);
    assert_eq!(codes(&p), ["SH008", "SH007", "SH007"]);
    assert_eq!(p.diagnostics[0].severity, Severity::Info);
    assert!(p.diagnostics[1].message.contains("placeholder"));
    // `<` as a real redirect is still a redirect
    assert_eq!(args("python -m sglang.launch_server --tp 2 < /dev/null"), ["--tp", "2"]);
    // `$ ` only as a prompt at the start of a line
    assert_eq!(args("python -m sglang.launch_server --x $ y"), ["--x", "$", "y"]);
}

#[test]
fn bad_input_never_panics() {
    let samples: Vec<String> = vec![
        String::new(),
        "\0".into(),
        "python -m sglang.launch_server --x a\0b".into(),
        "\\".into(),
        "'".into(),
        "\"".into(),
        "$".into(),
        "${".into(),
        "$(".into(),
        "$'\\".into(),
        "$'\\x".into(),
        "`".into(),
        "<".into(),
        "<a".into(),
        ">".into(),
        "2>".into(),
        "&>".into(),
        "{".into(),
        "--x={".into(),
        "python -m".into(),
        "python -m sglang.launch_server".into(),
        "sglang".into(),
        "sglang serve".into(),
        "docker run -e".into(),
        "env -u".into(),
        "é\\é'é\"é$é`é<é>".into(),
        "\r".into(),
        "\\\r".into(),
        "\\ \r".into(),
        "a=b=c".into(),
        "export".into(),
        "unset".into(),
        "${A:-".into(),
        "$((1+2))".into(),
        "python -m sglang.launch_server ${A:-'x y'} ${A:-\"z\"}".into(),
    ];
    for s in &samples {
        check_invariants(s);
    }
    // pseudo-random bytes made of shell-significant characters and UTF-8
    let alphabet: Vec<char> = "ab =-\\'\"$`<>{}()|&;#\n\r\t\0é€0123456789xuU".chars().collect();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for len in 0..400 {
        let mut s = String::new();
        for _ in 0..len % 60 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push(alphabet[(x % alphabet.len() as u64) as usize]);
        }
        check_invariants(&s);
        check_invariants(&format!("python -m sglang.launch_server {s}"));
        check_invariants(&format!("bash -c \"python -m sglang.launch_server {s}\""));
        check_invariants(&format!("sh -c 'python -m sglang.launch_server {s}"));
    }
}

fn timed(label: &str, text: &str, limit: Duration) {
    let t0 = Instant::now();
    let p = parse(text);
    let _ = locate(&p);
    let el = t0.elapsed();
    eprintln!("{label}: {el:?}");
    assert!(el < limit, "{label}: took {el:?}");
}

#[test]
fn large_inputs_are_linear() {
    // linear inputs of 1 MB take well under a second in release; debug builds are ~10x slower
    let limit = Duration::from_secs(if cfg!(debug_assertions) { 12 } else { 2 });
    let mut flags = String::from("python -m sglang.launch_server");
    for i in 0..100_000 {
        flags.push_str(&format!(" --flag-{i} \"v {i}\""));
    }
    timed("100k flags", &flags, limit);
    assert_eq!(one(&flags).args.len(), 200_000);
    let n = 1 << 20;
    timed("1MB of a", &"a".repeat(n), limit);
    timed("1MB of quotes", &"'".repeat(n), limit);
    timed("1MB of double quotes", &"\"".repeat(n), limit);
    timed("1MB of $(", &"$(".repeat(n / 2), limit);
    timed("1MB of ${", &"${".repeat(n / 2), limit);
    timed("1MB of backslash-space-newline", &"\\ \n".repeat(n / 3), limit);
    timed("1MB of <", &"<a".repeat(n / 2), limit);
    timed("1MB of {", &"{\"".repeat(n / 2), limit);
    timed("1MB of a=", &format!("{}{}", "a".repeat(n / 2), "=".repeat(n / 2)), limit);
    timed("1MB of NUL", &"\0".repeat(n), limit);
    timed("many exports", &"export A=1\n".repeat(n / 11), limit);
    timed("many commands", &"python -m sglang.launch_server --tp 2\n".repeat(n / 37), limit);
    timed("nested $(", &format!("{}{}", "$(".repeat(n / 4), ")".repeat(n / 4)), limit);
    timed("python options", &format!("nohup python{}", " -u".repeat(n / 3)), limit);
}

#[test]
fn typical_command_is_fast() {
    let t = "CUDA_VISIBLE_DEVICES=0,1 python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\\n  --tp 2 --port 30000 --host 0.0.0.0 --mem-fraction-static 0.85 --served-model-name 'llama 8b' > log 2>&1 &";
    let _ = locate(&parse(t));
    let n = 2000;
    let t0 = Instant::now();
    for _ in 0..n {
        let _ = locate(&parse(t));
    }
    let per = t0.elapsed() / n;
    eprintln!("parse+locate: {per:?} per command");
    // generous (debug build, shared machine); a release build takes a few µs
    assert!(per < Duration::from_micros(500), "{per:?}");
}
