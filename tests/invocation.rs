//! Finding the launch behind any wrapper (`src/invocation.rs`): command in, the launcher's
//! span, SGLang's argv and environment out. Profilers, launchers and other programs in front of
//! `python -m sglang.launch_server` / `sglang serve` are found generally (no list of their
//! names), their own options skipped; programs whose arguments are only text do not run it.
//! `tests/cases/wrappers.jsonl` records some of these on real SGLang (argv agreement).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice, clippy::panic)]

use sglang_preflight::invocation::{locate, Entry};
use sglang_preflight::shell;

struct Found {
    launcher: String,
    argv: Vec<String>,
    env: Vec<(String, String)>,
    entry: Entry,
}

fn found(text: &str) -> Vec<Found> {
    locate(&shell::parse(text))
        .invocations
        .iter()
        .map(|i| Found {
            launcher: text[i.launcher.start..i.launcher.end].to_string(),
            argv: i.args.iter().map(|w| w.text.clone()).collect(),
            env: i.env.clone(),
            entry: i.entry,
        })
        .collect()
}

const ARGS: &str = "--model-path m --tp-size 2";

fn argv() -> Vec<String> {
    ARGS.split(' ').map(str::to_string).collect()
}

/// `prefix` + a launch: found, with the launcher and SGLang's argv.
fn behind(prefix: &str, launcher: &str) -> Found {
    let text = format!("{prefix} {launcher} {ARGS}");
    let mut all = found(&text);
    assert_eq!(all.len(), 1, "{text}: {} launches", all.len());
    let f = all.remove(0);
    assert_eq!(f.launcher, launcher, "{text}");
    assert_eq!(f.argv, argv(), "{text}");
    f
}

#[test]
fn profilers_and_launchers_from_the_issue() {
    for prefix in [
        "nsys profile -o x",
        "nsys profile -o report --trace=cuda,nvtx --cuda-graph-trace=node -w true",
        "ncu",
        "ncu --set full -o prof --target-processes all",
        "py-spy record --",
        "py-spy record -o out.svg --subprocesses --",
        "taskset -c 0-15",
        "taskset 0xff",
        "timeout 600",
        "timeout -s KILL 10m",
        "stdbuf -oL -eL",
        "env -u X",
        "chrt -f 10",
        "chrt --rr 5",
        "ionice -c2 -n0",
        "sudo -E",
        "sudo -E -u svc",
        "accelerate launch --num_processes 1",
        "accelerate-like-launcher --flag",
    ] {
        behind(prefix, "python -m sglang.launch_server");
        behind(prefix, "python3 -m sglang.launch_server");
        let f = behind(prefix, "sglang serve");
        assert_eq!(f.entry, Entry::Serve);
    }
}

#[test]
fn more_wrappers_and_chains() {
    for prefix in [
        "nohup",
        "time",
        "exec",
        "nice -n 10",
        "numactl --cpunodebind=0 --membind=0",
        "srun -N1 --gres=gpu:8",
        "mpirun -np 1",
        "torchrun-like --nproc-per-node 8",
        "perf record -g --",
        "valgrind --tool=memcheck",
        "strace -f -o trace.txt",
        "ltrace -f",
        "compute-sanitizer --tool memcheck",
        "nvprof --profile-child-processes",
        "rocprof --stats",
        "rocprofv3 --kernel-trace --",
        "gdb -ex run --args",
        "cuda-gdb --args",
        "xvfb-run -a",
        "setsid -f",
        "flock /tmp/lock",
        "uv run --with sglang",
        "uvx --from sglang",
        "poetry run",
        "pixi run",
        "conda run -n sgl --no-capture-output",
        "micromamba run -n sgl",
        "caffeinate -i",
        "watchdog-run --restart-on-failure",
        "./run-with-libs.sh --cuda 12.8",
        "/opt/tools/bin/launch.sh",
        "taskset -c 0-7 nice -n 5 timeout 1h stdbuf -oL nsys profile -o x",
        "sudo -E env CUDA_VISIBLE_DEVICES=0,1 numactl -N0",
        "timeout --foreground -k 5 600 py-spy record -o p.svg --",
        "apptainer exec --nv sglang.sif",
        "singularity exec --nv img.sif",
        "enroot start --rw sglang",
        "docker run --gpus all --shm-size 32g -p 30000:30000 lmsysorg/sglang:latest",
        "docker run --rm -it lmsysorg/sglang:latest nsys profile -o x",
        "podman run --device nvidia.com/gpu=all img",
        "kubectl exec -it pod-0 --",
        "ssh gpu-node-1",
    ] {
        behind(prefix, "python -m sglang.launch_server");
    }
    // interpreter options and other spellings of the interpreter
    for launcher in [
        "python -u -m sglang.launch_server",
        "python3.11 -X importtime -m sglang.launch_server",
        "/usr/bin/python3 -W ignore -m sglang.launch_server",
        ".venv/bin/python -Bu -m sglang.launch_server",
        "python3 -msglang.launch_server",
    ] {
        behind("nsys profile -o x", launcher);
    }
    behind("env FOO=1 nsys profile -o x", "/opt/venv/bin/sglang serve");
}

#[test]
fn the_environment_behind_wrappers() {
    let env = |text: &str| found(text).remove(0).env;
    let kv = |k: &str, v: &str| (k.to_string(), v.to_string());
    assert_eq!(env("A=1 nsys profile -o x python -m sglang.launch_server --model-path m"), vec![kv("A", "1")]);
    // env -u removes, env K=V sets
    assert_eq!(env("export A=1 B=2\nenv -u A C=3 python -m sglang.launch_server --model-path m"), vec![kv("B", "2"), kv("C", "3")]);
    // sudo resets the environment unless -E
    assert!(env("A=1 sudo python -m sglang.launch_server --model-path m").is_empty());
    assert_eq!(env("A=1 sudo -E python -m sglang.launch_server --model-path m"), vec![kv("A", "1")]);
    // docker starts from an empty environment plus its -e settings
    assert_eq!(env("export A=1\ndocker run -e B=2 img python -m sglang.launch_server --model-path m"), vec![kv("B", "2")]);
    // the options of a program env runs are not env's: `-u` of nsys does not unset anything
    assert_eq!(env("export U=1\nenv A=2 nsys profile -u U python -m sglang.launch_server --model-path m"), vec![kv("U", "1"), kv("A", "2")]);
    // nor is `-e` of a program the container runs docker's
    assert_eq!(env("docker run -e A=1 img nsys profile -e B=2 python -m sglang.launch_server --model-path m"), vec![kv("A", "1")]);
}

#[test]
fn text_is_not_a_launch() {
    for text in [
        "echo python -m sglang.launch_server --model-path m",
        "printf '%s\\n' python -m sglang.launch_server",
        "grep -r 'python -m sglang.launch_server' .",
        "git commit -m 'python -m sglang.launch_server --model-path m'",
        "man sglang",
        "pip install sglang",
        "cat notes.txt",
        "python -m pip install sglang",
        "python -c 'import sglang'",
        "python script.py -m sglang.launch_server",
        "nsys profile -o x python train.py --model-path m",
    ] {
        assert!(found(text).is_empty(), "{text}");
    }
}
