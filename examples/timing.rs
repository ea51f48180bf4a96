use sglang_preflight::{check, CheckOptions};
use std::time::Instant;
fn main() { rules_only();
    let cmds = [
        "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 2 --port 30000 --host 0.0.0.0 --mem-fraction-static 0.85 --enable-metrics",
        "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool",
    ];
    let opts = CheckOptions::default();
    for c in cmds {
        let _ = check(c, &opts);
        let n = 20000;
        let t = Instant::now();
        for _ in 0..n { std::hint::black_box(check(std::hint::black_box(c), &opts)); }
        println!("{:.2} us/check", t.elapsed().as_secs_f64() * 1e6 / n as f64);
        let p = sglang_preflight::shell::parse(c);
        let t = Instant::now();
        for _ in 0..n { std::hint::black_box(sglang_preflight::shell::parse(std::hint::black_box(c))); }
        println!("  shell {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
        let inv = sglang_preflight::invocation::locate(&p).invocations;
        let schema = sglang_preflight::schema::get("0.5.23").unwrap();
        let t = Instant::now();
        for _ in 0..n { std::hint::black_box(sglang_preflight::argparse::parse_args_with(schema, &inv[0].args, &[])); }
        println!("  argparse {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
}
#[allow(dead_code)]
fn unused() {}
fn rules_only() {
    use sglang_preflight::rules::{Ctx, pipeline};
    use sglang_preflight::resolved::ResolvedConfig;
    let c = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 2 --port 30000";
    let p = sglang_preflight::shell::parse(c);
    let inv = sglang_preflight::invocation::locate(&p).invocations;
    let schema = sglang_preflight::schema::get("0.5.23").unwrap();
    let parsed = sglang_preflight::argparse::parse_args_with(schema, &inv[0].args, &[]);
    let hw = sglang_preflight::hardware::Hardware::default_h100();
    let fe = sglang_preflight::frontend::run_with(Some(schema), &inv[0], &Default::default());
    let n = 20000;
    let t = Instant::now();
    for _ in 0..n { std::hint::black_box(sglang_preflight::frontend::run_with(Some(schema), &inv[0], &Default::default())); }
    println!("frontend {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let _ = fe;
    let t = Instant::now();
    for _ in 0..n {
        let mut ctx = Ctx { cfg: ResolvedConfig::new(schema, &parsed.namespace), hw: &hw, env: &inv[0].env, text: c, append_at: c.len(), fallback_span: inv[0].launcher, model_config_known: false, diagnostics: Vec::new(), not_run: Vec::new() };
        pipeline::run_resolution_pipeline(&mut ctx);
        pipeline::check_server_args(&mut ctx);
        std::hint::black_box(ctx.diagnostics.len());
    }
    println!("rules {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
}
